#include "common/kube/cache/reflector.h"

#include <optional>

#include <spdlog/spdlog.h>

#include "common/json/release.h"
#include "common/kube/stoppable_sleep.h"

namespace vc::kube::cache {

namespace {

using nlohmann::json;

// A string at object.metadata.<field>, or "" when absent or not a string.
std::string metadata_string(const json& object, const char* field) {
  if (!object.is_object()) return {};
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return {};
  auto it = meta->find(field);
  if (it == meta->end() || !it->is_string()) return {};
  return it->get<std::string>();
}

// Whether a watch ERROR event's Status says the requested resourceVersion is gone.
bool status_is_gone(const json& status) {
  if (!status.is_object()) return false;
  if (auto code = status.find("code"); code != status.end() && code->is_number_integer()) {
    if (code->get<int>() == 410) return true;
  }
  if (auto reason = status.find("reason"); reason != status.end() && reason->is_string()) {
    const auto& r = reason->get_ref<const std::string&>();
    return r == "Expired" || r == "Gone";
  }
  return false;
}

ApiError error_of(ErrorKind kind, std::string message) {
  ApiError e;
  e.kind = kind;
  e.message = std::move(message);
  return e;
}

std::string describe_what(const Resource& resource, const ReflectorOptions& o) {
  std::string what = resource.qualified();
  if (!o.namespace_.empty()) what += " in " + o.namespace_;
  if (!o.label_selector.empty()) what += " with " + o.label_selector;
  return what;
}

}  // namespace

Reflector::Reflector(Client& client, const Resource& resource, ReflectorOptions options,
                     ReflectorSink& sink)
    : client_(client),
      resource_(resource),
      options_(std::move(options)),
      what_(describe_what(resource_, options_)),
      sink_(sink),
      backoff_(options_.backoff),
      rng_(random::SmallRng::from_entropy()) {}

std::string Reflector::last_resource_version() const {
  std::lock_guard lock(rv_mu_);
  return resource_version_;
}

void Reflector::set_resource_version(std::string rv) {
  std::lock_guard lock(rv_mu_);
  resource_version_ = std::move(rv);
}

void Reflector::run(std::stop_token stop) {
  bool need_list = true;
  while (!stop.stop_requested()) {
    if (need_list) {
      Status listed = list_and_replace(stop);
      if (stop.stop_requested()) return;
      if (!listed.ok()) {
        spdlog::warn("reflector list failed resource=\"{}\" error=\"{}\"", what_,
                     listed.error().describe());
        if (!wait_backoff(stop)) return;
        continue;
      }
      need_list = false;
    }
    const auto started = std::chrono::steady_clock::now();
    const WatchEnd end = watch(stop);
    if (end == WatchEnd::Stopped) return;
    const bool healthy = std::chrono::steady_clock::now() - started >= options_.healthy_after;
    if (healthy) backoff_.reset();
    if (end == WatchEnd::Gone) need_list = true;
    // A healthy watch that the server ended on schedule resumes at once; anything else waits,
    // so a server that fails or closes every watch at once is not hammered.
    if (end == WatchEnd::Clean && healthy) continue;
    if (!wait_backoff(stop)) return;
  }
}

Status Reflector::list_and_replace(std::stop_token stop) {
  ListOptions page_options;
  page_options.label_selector = options_.label_selector;
  page_options.field_selector = options_.field_selector;
  page_options.limit = options_.page_size;
  std::vector<ObjectPtr> objects;
  std::vector<DecodeRejection> rejected;
  std::string rv;
  int pages = 0;
  while (true) {
    // Items are transformed as they are parsed, so a page never exists as one whole JSON tree.
    auto page = client_.list_each(resource_, options_.namespace_, page_options, [&](json&& item) {
      DecodeRejection rejection;
      if (ObjectPtr obj = transform(std::move(item), &rejection)) {
        objects.push_back(std::move(obj));
      } else if (!rejection.name.empty()) {
        rejected.push_back(std::move(rejection));
      }
    });
    if (!page.ok()) {
      if (page.is(ErrorKind::Gone) && !page_options.continue_token.empty()) {
        spdlog::info("reflector continue token expired, listing again resource=\"{}\" page={}",
                     what_, pages + 1);
      }
      return page.error();
    }
    if (stop.stop_requested()) return error_of(ErrorKind::Cancelled, "stop requested");
    json& body = page.value();
    if (!body.is_object()) {
      return error_of(ErrorKind::Other, "list response is not a JSON object");
    }
    ++pages;
    rv = metadata_string(body, "resourceVersion");
    std::string next = metadata_string(body, "continue");
    if (next.empty()) break;
    page_options.continue_token = std::move(next);
  }
  if (rv.empty()) {
    spdlog::warn(
        "reflector list without resourceVersion resource=\"{}\": the watch starts at "
        "the newest version",
        what_);
  }
  spdlog::info(
      "reflector listed resource=\"{}\" objects={} undecodable={} pages={} resourceVersion={}",
      what_, objects.size(), rejected.size(), pages, rv);
  // The version is recorded before the sink hears of the list, so anyone who has seen a change
  // finds last_resource_version() at or past it.
  set_resource_version(rv);
  sink_.replace(std::move(objects), rv, std::move(rejected));
  // The list holds every version written before it; those the watch would have delivered are
  // not coming any more.
  if (options_.written) options_.written->clear();
  return ok_status();
}

Reflector::WatchEnd Reflector::watch(std::stop_token stop) {
  WatchOptions watch_options;
  watch_options.label_selector = options_.label_selector;
  watch_options.field_selector = options_.field_selector;
  watch_options.resource_version = last_resource_version();
  watch_options.allow_bookmarks = true;
  watch_options.object_filter = options_.transform_reads;
  // The object of a head_only event, taken from options_.written when the decoder asked.
  ObjectPtr known;
  if (options_.written) {
    watch_options.known_version = [this, &known](const WatchEventHead& head) {
      if (head.type != WatchEvent::Type::Modified) return false;
      known = options_.written->take(object_key(head.namespace_, head.name), head.resource_version);
      return known != nullptr;
    };
    watch_options.anything_known = [this] { return !options_.written->empty(); };
  }
  const auto min_timeout = static_cast<int>(options_.min_watch_timeout.count());
  watch_options.timeout_seconds =
      std::uniform_int_distribution<int>(min_timeout, 2 * min_timeout)(rng_);

  // Our own stop source: an ERROR event ends the watch from inside the event callback, and the
  // caller's stop request is forwarded to it.
  std::stop_source local;
  std::stop_callback forward(stop, [&local] { local.request_stop(); });
  std::optional<WatchEnd> ended_by_event;
  auto on_event = [&](WatchEvent&& event) {
    if (local.stop_requested()) return;  // events after an ERROR are not applied
    if (event.type == WatchEvent::Type::Error) {
      if (status_is_gone(event.object)) {
        spdlog::info("reflector watch expired, relisting resource=\"{}\" status={}", what_,
                     event.object.dump());
        ended_by_event = WatchEnd::Gone;
      } else {
        spdlog::warn("reflector watch ERROR event resource=\"{}\" status={}", what_,
                     event.object.dump());
        ended_by_event = WatchEnd::Failed;
      }
      local.request_stop();
      return;
    }
    if (std::string rv = metadata_string(event.object, "resourceVersion"); !rv.empty()) {
      set_resource_version(std::move(rv));
    }
    if (event.head_only) {
      if (known) sink_.apply(event.type, std::move(known));
      known = nullptr;
      return;
    }
    if (event.type == WatchEvent::Type::Deleted) {
      std::string key = object_key(metadata_string(event.object, "namespace"),
                                   metadata_string(event.object, "name"));
      if (options_.written) options_.written->forget(key);
      if (ObjectPtr obj = transform(std::move(event.object))) {
        sink_.apply(event.type, std::move(obj));
      } else if (!key.empty()) {
        sink_.remove(key);
      }
    } else if (event.type != WatchEvent::Type::Bookmark) {
      DecodeRejection rejection;
      if (ObjectPtr obj = transform(std::move(event.object), &rejection)) {
        sink_.apply(event.type, obj);
      } else if (!rejection.name.empty()) {
        sink_.reject(std::move(rejection));
      }
    }
  };
  Status st =
      client_.watch(resource_, options_.namespace_, watch_options, on_event, local.get_token());
  if (stop.stop_requested()) return WatchEnd::Stopped;
  if (ended_by_event) return *ended_by_event;
  if (st.ok()) {
    spdlog::debug("reflector watch ended resource=\"{}\" resourceVersion={}", what_,
                  last_resource_version());
    return WatchEnd::Clean;
  }
  if (st.is(ErrorKind::Gone)) {
    spdlog::info(
        "reflector resourceVersion too old, relisting resource=\"{}\" "
        "resourceVersion={}",
        what_, watch_options.resource_version);
    return WatchEnd::Gone;
  }
  spdlog::warn("reflector watch failed resource=\"{}\" resourceVersion={} error=\"{}\"", what_,
               last_resource_version(), st.error().describe());
  return WatchEnd::Failed;
}

ObjectPtr Reflector::transform(json&& object, DecodeRejection* rejected) {
  if (!object.is_object()) {
    spdlog::error("reflector dropping a non-object item resource=\"{}\"", what_);
    return nullptr;
  }
  // List items carry no kind or apiVersion; set them so cached objects look the same whether
  // they came from a list or a watch.
  if (!object.contains("kind")) object["kind"] = resource_.kind;
  if (!object.contains("apiVersion")) object["apiVersion"] = resource_.api_version();
  // What a rejection says about the object, read before the transform may consume it.
  DecodeRejection r;
  r.namespace_ = metadata_string(object, "namespace");
  r.name = metadata_string(object, "name");
  if (rejected != nullptr) {
    r.uid = metadata_string(object, "uid");
    r.resource_version = metadata_string(object, "resourceVersion");
  }
  // A rejected object with a name goes to the caller (who logs it); one without is dropped here.
  auto reject = [&](std::string error) -> ObjectPtr {
    if (rejected == nullptr || r.name.empty()) {
      spdlog::error("reflector cannot cache object resource=\"{}\" object={} error=\"{}\"", what_,
                    r.key(), error);
      return nullptr;
    }
    r.resource = resource_.qualified();
    r.kind = resource_.kind;
    r.api_version = resource_.api_version();
    r.error = std::move(error);
    *rejected = std::move(r);
    return nullptr;
  };
  try {
    ObjectPtr obj = options_.transform ? options_.transform(std::move(object))
                                       : json_transform(std::move(object));
    // A view transform copies what it keeps and leaves the document here. release() frees it
    // without the destructor's heap stack (common/json/release.h): 4.5 % fewer instructions per
    // pod event (callgrind, BM_PodEventToView in controllers/views/views_bench.cpp).
    fastjson::release(object);
    if (!obj) return reject("the transform rejected the object");
    if (obj->name.empty()) {
      spdlog::error("reflector dropping object without a name resource=\"{}\"", what_);
      return nullptr;
    }
    return obj;
  } catch (const std::exception& e) {
    return reject(e.what());
  }
}

bool Reflector::wait_backoff(std::stop_token stop) {
  const auto delay = backoff_.next();
  spdlog::debug("reflector backing off resource=\"{}\" delay_ms={}", what_, delay.count());
  return sleep_unless_stopped(delay, stop);
}

}  // namespace vc::kube::cache
