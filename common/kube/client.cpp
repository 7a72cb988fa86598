// The REST verbs: request construction, retries, rate limiting and metrics over Transport.

#include "common/kube/client.h"

#include <atomic>
#include <mutex>
#include <random>

#include <spdlog/spdlog.h>

#include "common/json/fast_parse.h"
#include "common/kube/errors.h"
#include "common/kube/fault_scope.h"
#include "common/kube/proto/envelope.h"
#include "common/kube/proto/schema.h"
#include "common/kube/rate_limiter.h"
#include "common/kube/request_metrics.h"
#include "common/kube/stoppable_sleep.h"
#include "common/kube/transport.h"
#include "common/kube/url.h"
#include "common/kube/watch_decoder.h"
#include "common/random/random.h"

namespace vc::kube {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::string_view kJson = "application/json";
// What a request for a built-in type accepts with --kube-api-content-type=protobuf: protobuf
// first, JSON from a server (or proxy) that has no protobuf form for it.
constexpr std::string_view kAcceptProtobuf =
    "application/vnd.kubernetes.protobuf, application/json";
// The filter of a reply read whole.
const fastjson::MemberFilter kWholeReply;

std::string_view content_type(PatchType type) {
  switch (type) {
    case PatchType::Merge:
      return "application/merge-patch+json";
    case PatchType::Json:
      return "application/json-patch+json";
    case PatchType::Apply:
      return "application/apply-patch+yaml";
  }
  return kJson;
}

ApiError local_error(std::string message) {
  ApiError e;
  e.kind = ErrorKind::BadRequest;
  e.message = std::move(message);
  return e;
}

std::string metadata_string(const json& object, const char* key) {
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return {};
  auto v = meta->find(key);
  return v != meta->end() && v->is_string() ? v->get<std::string>() : std::string();
}

// Whether to send the request again after this failure.
bool should_retry(const ApiError& e, bool idempotent) {
  if (e.kind == ErrorKind::TooManyRequests) return true;  // the server did not process it
  if (!idempotent) return false;
  switch (e.kind) {
    case ErrorKind::Transport:
    case ErrorKind::InternalError:
    case ErrorKind::ServiceUnavailable:
    case ErrorKind::ServerTimeout:
      return true;
    default:
      // Any other 5xx (a proxy's 502) may pass. Timeout means the call's deadline is spent, and
      // 4xx answers repeat themselves.
      return e.http_status >= 500;
  }
}

Clock::duration jittered(std::chrono::milliseconds base, int attempt) {
  const auto nominal = base * (1 << std::min(attempt, 10));
  std::uniform_real_distribution<double> factor(0.75, 1.25);
  return std::chrono::duration_cast<Clock::duration>(nominal * factor(random::thread_rng()));
}

}  // namespace

struct Client::Impl {
  Impl(Config c, ClientOptions o)
      : config(std::move(c)),
        options(std::move(o)),
        transport(config, TransportOptions{options.user_agent, options.max_idle_connections}),
        limiter(options.qps, options.burst),
        group_limiter(options.qps, options.burst) {}

  // The bucket a request to `target` draws from: the second one for a path under
  // /apis/<group>/ whose group ends with options.own_bucket_group_suffix.
  RateLimiter& limiter_for(std::string_view target) {
    const std::string_view suffix = options.own_bucket_group_suffix;
    constexpr std::string_view kApis = "/apis/";
    if (suffix.empty() || !target.starts_with(kApis)) return limiter;
    std::string_view group = target.substr(kApis.size());
    group = group.substr(0, group.find('/'));
    return group.ends_with(suffix) ? group_limiter : limiter;
  }

  // One logical call, decoded.
  Result<json> call(HttpRequest rq, bool idempotent,
                    const fastjson::MemberFilter& reply_reads = kWholeReply, CallDeadline by = {},
                    LimiterWait wait = LimiterWait::Wait) {
    auto r = call_raw(rq, idempotent, by, wait);
    if (!r.ok()) return r.error();
    return decode(rq, r->body, reply_reads);
  }

  // Whether requests for r speak protobuf: the option is on and r is a built-in type.
  bool protobuf_for(const Resource& r) const {
    return protobuf && proto::message_for(proto::k8s_schema(), r.api_version(), r.kind) != nullptr;
  }

  // A request for r: protobuf accepted when protobuf_for(r).
  HttpRequest make_for(const Resource& r, std::string_view method, std::string target) {
    HttpRequest rq = make(method, std::move(target));
    if (protobuf_for(r)) rq.accept = kAcceptProtobuf;
    return rq;
  }

  // The POST of object to its collection; an empty ns means the object's own namespace.
  HttpRequest create_request(const Resource& r, std::string_view ns, const json& object) {
    std::string object_ns;
    if (ns.empty() && r.namespaced) {
      object_ns = metadata_string(object, "namespace");
      ns = object_ns;
    }
    HttpRequest rq = make("POST", r.path(ns));
    set_body(rq, r, object);
    return rq;
  }

  // rq's body: object in protobuf when protobuf_for(r) and our schema can write it exactly,
  // else JSON.
  void set_body(HttpRequest& rq, const Resource& r, const json& object) {
    if (protobuf_for(r)) {
      rq.accept = kAcceptProtobuf;
      auto bytes = proto::encode_object(proto::k8s_schema(), object, r.api_version(), r.kind);
      if (bytes) {
        rq.body = std::move(*bytes);
        rq.content_type = proto::kContentType;
        record_protobuf_objects(/*sent=*/true);
        return;
      }
      record_protobuf_fallback();
      // Once at info (the API server knows a field our schema does not), then at debug.
      static std::atomic<bool> told{false};
      if (!told.exchange(true)) {
        spdlog::info(
            "kube client: sending JSON instead of protobuf (logged once; counted in "
            "vc_cpp_kube_client_protobuf_fallbacks_total): {} {}: {}",
            rq.method, rq.target, bytes.error());
      } else {
        spdlog::debug("kube client: sending JSON instead of protobuf: {} {}: {}", rq.method,
                      rq.target, bytes.error());
      }
    }
    rq.body = object.dump();
    rq.content_type = kJson;
  }

  // The token every call checks: stopped by fence(). nullopt while fenced.
  std::optional<std::stop_token> fence_token() {
    std::lock_guard lock(fence_mu);
    if (fenced) return std::nullopt;
    return fence_source.get_token();
  }

  static ApiError fenced_error(const HttpRequest& rq) {
    return cancelled_error(std::string(rq.method) + " " + rq.target +
                           ": cancelled: the client is fenced (leadership lost)");
  }

  // One logical call: rate limit, send, retry within the call's deadline. Returns only 2xx.
  // A final failure is noted in the calling thread's FaultScope (a reconcile's), so the worker
  // loop can tell the API server's trouble from the object's.
  Result<HttpResponse> call_raw(HttpRequest& rq, bool idempotent, CallDeadline by = {},
                                LimiterWait wait = LimiterWait::Wait) {
    auto r = call_with_retries(rq, idempotent, by, wait);
    if (!r.ok()) FaultScope::note_api_error(r.error());
    return r;
  }

  Result<HttpResponse> call_with_retries(HttpRequest& rq, bool idempotent, CallDeadline by,
                                         LimiterWait wait) {
    const auto token = fence_token();
    if (!token) return fenced_error(rq);
    const std::stop_token& stop = *token;
    const auto started = Clock::now();
    const auto deadline =
        std::min(started + options.request_timeout, by.value_or(Clock::time_point::max()));
    if (deadline <= started) {
      return timeout_error(std::string(rq.method) + " " + rq.target + ": deadline already passed");
    }
    for (int attempt = 0;; ++attempt) {
      if (wait == LimiterWait::FailFast) {
        if (stop.stop_requested()) return fenced_error(rq);
        if (!limiter_for(rq.target).try_acquire()) return throttled_error(rq);
      } else if (!limiter_for(rq.target).acquire(stop)) {
        return fenced_error(rq);
      }
      rq.deadline = deadline;
      const auto t0 = Clock::now();
      auto r = transport.send(rq, stop);
      observe_request_duration(rq.method, std::chrono::duration<double>(Clock::now() - t0).count());
      record_request(rq.method, transport.host(), r.ok() ? r->status : 0);
      if (r.ok() && r->status >= 200 && r->status < 300) return std::move(r).value();
      ApiError err = r.ok() ? error_from_response(r->status, r->body, r->retry_after) : r.error();
      if (stop.stop_requested()) return fenced_error(rq);
      if (!should_retry(err, idempotent) || attempt >= options.max_retries) {
        log_failure(rq, err, attempt);
        return err;
      }
      auto delay = err.retry_after
                       ? Clock::duration(std::min(*err.retry_after, options.max_retry_after))
                       : jittered(options.retry_base_delay, attempt);
      if (Clock::now() + delay >= deadline) {
        log_failure(rq, err, attempt);
        return err;
      }
      spdlog::debug("kube client: retrying method={} target={} attempt={} delay_ms={} error={}",
                    rq.method, rq.target, attempt + 1,
                    std::chrono::duration_cast<std::chrono::milliseconds>(delay).count(),
                    err.describe());
      if (!sleep_unless_stopped(delay, stop)) return fenced_error(rq);
    }
  }

  // LimiterWait::FailFast found the bucket empty.
  static ApiError throttled_error(const HttpRequest& rq) {
    ApiError e;
    e.kind = ErrorKind::TooManyRequests;
    e.message = std::string(rq.method) + " " + rq.target +
                ": not sent: the client-side rate limiter (--kube-api-qps, --kube-api-burst) "
                "has no token free";
    return e;
  }

  static void log_failure(const HttpRequest& rq, const ApiError& err, int retries) {
    // NotFound/AlreadyExists/Conflict are ordinary answers the caller handles; no noise for them.
    if (err.kind == ErrorKind::NotFound || err.kind == ErrorKind::AlreadyExists ||
        err.kind == ErrorKind::Conflict) {
      return;
    }
    spdlog::debug("kube client: request failed method={} target={} retries={} error={}", rq.method,
                  rq.target, retries, err.describe());
  }

  static Result<json> decode(const HttpRequest& rq, const std::string& body,
                             const fastjson::MemberFilter& reads) {
    if (body.empty()) return json();
    if (proto::is_enveloped(body)) {
      // The members reads keeps, as the JSON parse below builds them.
      auto j =
          proto::decode_object(proto::k8s_schema(), body, reads.keeps_all() ? nullptr : &reads);
      if (j) {
        record_protobuf_objects(/*sent=*/false);
        return std::move(*j);
      }
      ApiError e;
      e.kind = ErrorKind::Other;
      e.message = std::string(rq.method) + " " + rq.target + ": " + j.error();
      return e;
    }
    json j = fastjson::parse_or_discarded(body, reads);
    if (j.is_discarded()) {
      ApiError e;
      e.kind = ErrorKind::Other;
      e.message = std::string(rq.method) + " " + rq.target + ": response is not valid JSON";
      return e;
    }
    return j;
  }

  HttpRequest make(std::string_view method, std::string target, std::string body = {},
                   std::string_view type = {}) {
    HttpRequest rq;
    rq.method = method;
    rq.target = std::move(target);
    rq.body = std::move(body);
    rq.content_type = type;
    return rq;
  }

  Status watch(const Resource& r, std::string_view ns, const WatchOptions& o,
               const std::function<void(WatchEvent&&)>& on_event, std::stop_token stop) {
    std::string target =
        r.path(ns) +
        query_string({{"watch", "1"},
                      {"allowWatchBookmarks", o.allow_bookmarks ? "true" : ""},
                      {"resourceVersion", o.resource_version},
                      {"timeoutSeconds",
                       o.timeout_seconds > 0 ? std::to_string(o.timeout_seconds) : std::string()},
                      {"labelSelector", o.label_selector},
                      {"fieldSelector", o.field_selector}});
    if (!limiter_for(target).acquire(stop)) {
      return cancelled_error("watch " + target + ": cancelled");
    }
    HttpRequest rq = make_for(r, "GET", std::move(target));
    const auto now = Clock::now();
    rq.deadline = now + options.request_timeout;  // for the response head only
    const auto body_deadline =
        o.timeout_seconds > 0 ? now + std::chrono::seconds(o.timeout_seconds) + options.watch_grace
                              : Clock::time_point::max();
    WatchDecoder decoder(o.object_filter.get(), &o.known_version, &o.anything_known);
    // Set when the server answered in protobuf: a JSON stream starts with '{', a protobuf one
    // with a frame length. Its events are handed to decoder as JSON, so that the filters and
    // known_version work the same for both.
    std::optional<proto::WatchFrames> frames;
    Status decode_status = ok_status();
    bool got_body = false;  // a 2xx head arrived: later failures are not the request's status
    auto at_boundary = [&] { return decoder.at_boundary() && (!frames || frames->at_boundary()); };
    Status st = transport.stream(
        rq,
        [&](std::string_view data) {
          if (!got_body && rq.accept == kAcceptProtobuf && !data.empty() && data.front() != '{')
            frames.emplace();
          got_body = true;
          decode_status =
              frames ? feed_protobuf(*frames, data, o.object_filter.get(), decoder, on_event)
                     : decoder.feed(data, on_event);
          return decode_status.ok();
        },
        stop, body_deadline, StreamPacing{options.watch_read_pause, at_boundary});
    record_request("GET", transport.host(), st.ok() || got_body ? 200 : st.error().http_status);
    if (!decode_status.ok()) return decode_status;
    if (st.ok() && !at_boundary()) {
      return transport_error(
          "watch " + rq.target + ": stream ended inside an event (" +
          std::to_string(decoder.buffered_bytes() + (frames ? frames->buffered_bytes() : 0)) +
          " bytes buffered)");
    }
    return st;
  }

  // The protobuf frames of a watch stream, each passed to decoder as its JSON event.
  // object_filter: the watch's (null: everything but metadata.managedFields, as for JSON).
  static Status feed_protobuf(proto::WatchFrames& frames, std::string_view data,
                              const fastjson::MemberFilter* object_filter, WatchDecoder& decoder,
                              const std::function<void(WatchEvent&&)>& on_event) {
    static const auto kNoManagedFields =
        fastjson::MemberFilter::all_but({"metadata.managedFields"});
    if (object_filter == nullptr || object_filter->keeps_all()) object_filter = &kNoManagedFields;
    frames.append(data);
    while (auto frame = frames.next()) {
      auto event = proto::decode_watch_event(proto::k8s_schema(), *frame, object_filter);
      if (!event) return transport_error("watch: " + event.error());
      record_protobuf_objects(/*sent=*/false);
      Status st = decoder.feed(event->dump(), on_event);
      if (!st.ok()) return st;
    }
    if (frames.error() != nullptr) return transport_error(std::string("watch: ") + frames.error());
    return ok_status();
  }

  Config config;
  ClientOptions options;
  bool protobuf = options.content_type == proto::kContentType;
  Transport transport;
  RateLimiter limiter;
  RateLimiter group_limiter;  // own_bucket_group_suffix's groups

  mutable std::mutex fence_mu;  // guards fenced and fence_source
  bool fenced = false;
  std::stop_source fence_source;  // replaced by unfence(): a stop_source cannot be reset
};

Client::Client(Config config, ClientOptions options)
    : impl_(std::make_unique<Impl>(std::move(config), std::move(options))) {}

Client::~Client() = default;

void Client::fence() {
  std::lock_guard lock(impl_->fence_mu);
  if (impl_->fenced) return;
  impl_->fenced = true;
  impl_->fence_source.request_stop();
  spdlog::info("kube client: fenced: calls in flight cancelled, new calls refused");
}

void Client::unfence() {
  std::lock_guard lock(impl_->fence_mu);
  if (!impl_->fenced) return;
  impl_->fenced = false;
  impl_->fence_source = std::stop_source();
  spdlog::info("kube client: unfenced");
}

bool Client::fenced() const {
  std::lock_guard lock(impl_->fence_mu);
  return impl_->fenced;
}

const Config& Client::config() const {
  return impl_->config;
}

Result<json> Client::get(const Resource& r, std::string_view ns, std::string_view name,
                         std::string_view subresource, CallDeadline by, LimiterWait wait) {
  return impl_->call(impl_->make_for(r, "GET", r.path(ns, name, subresource)), true, kWholeReply,
                     by, wait);
}

namespace {

std::string list_target(const Resource& r, std::string_view ns, const ListOptions& o) {
  return r.path(ns) +
         query_string({{"labelSelector", o.label_selector},
                       {"fieldSelector", o.field_selector},
                       {"limit", o.limit > 0 ? std::to_string(o.limit) : std::string()},
                       {"continue", o.continue_token},
                       {"resourceVersion", o.resource_version},
                       {"resourceVersionMatch", o.resource_version_match}});
}

}  // namespace

Result<json> Client::list(const Resource& r, std::string_view ns, const ListOptions& o) {
  return impl_->call(impl_->make_for(r, "GET", list_target(r, ns, o)), true);
}

Result<json> Client::list_each(const Resource& r, std::string_view ns, const ListOptions& o,
                               const std::function<void(json&&)>& on_item) {
  auto rq = impl_->make_for(r, "GET", list_target(r, ns, o));
  auto resp = impl_->call_raw(rq, true);
  if (!resp.ok()) return resp.error();
  if (proto::is_enveloped(resp->body)) {
    double items = 0;
    auto list = proto::decode_list(proto::k8s_schema(), resp->body, [&](json&& item) {
      ++items;
      on_item(std::move(item));
    });
    record_protobuf_objects(/*sent=*/false, items);
    if (list) return std::move(*list);
    ApiError e;
    e.kind = ErrorKind::Other;
    e.message = "GET " + rq.target + ": " + list.error();
    return e;
  }
  // The parser reports each completed value; an object ending at depth 2 right after the
  // top-level key "items" is one list item: hand it over and drop it from the tree.
  bool in_items = false;
  json list = json::parse(
      resp->body,
      [&](int depth, json::parse_event_t event, json& parsed) {
        if (depth == 1 && event == json::parse_event_t::key) {
          in_items = parsed.is_string() && parsed.get_ref<const std::string&>() == "items";
        } else if (depth == 2 && in_items && event == json::parse_event_t::object_end) {
          on_item(std::move(parsed));
          return false;
        }
        return true;
      },
      /*allow_exceptions=*/false);
  if (list.is_discarded() || !list.is_object()) {
    ApiError e;
    e.kind = ErrorKind::Other;
    e.message = "GET " + rq.target + ": response is not a valid JSON list";
    return e;
  }
  return list;
}

Result<json> Client::create(const Resource& r, std::string_view ns, const json& object,
                            CallDeadline by) {
  return impl_->call(impl_->create_request(r, ns, object), false, kWholeReply, by);
}

Result<json> Client::create(const Resource& r, std::string_view ns, const json& object,
                            const fastjson::MemberFilter& reply_reads) {
  return impl_->call(impl_->create_request(r, ns, object), false, reply_reads);
}

Result<json> Client::update(const Resource& r, std::string_view ns, const json& object,
                            CallDeadline by) {
  const std::string name = metadata_string(object, "name");
  if (name.empty()) return local_error("update " + r.qualified() + ": object has no metadata.name");
  auto rq = impl_->make("PUT", r.path(ns, name));
  impl_->set_body(rq, r, object);
  return impl_->call(std::move(rq), false, kWholeReply, by);
}

Result<json> Client::update_status(const Resource& r, std::string_view ns, const json& object) {
  return update_status(r, ns, object, kWholeReply);
}

Result<json> Client::update_status(const Resource& r, std::string_view ns, const json& object,
                                   const fastjson::MemberFilter& reply_reads) {
  const std::string name = metadata_string(object, "name");
  if (name.empty()) {
    return local_error("update_status " + r.qualified() + ": object has no metadata.name");
  }
  auto rq = impl_->make("PUT", r.path(ns, name, "status"));
  impl_->set_body(rq, r, object);
  return impl_->call(std::move(rq), false, reply_reads);
}

Result<json> Client::patch(const Resource& r, std::string_view ns, std::string_view name,
                           PatchType type, const std::string& body, const PatchOptions& o) {
  if (type == PatchType::Apply && o.field_manager.empty()) {
    return local_error("apply " + r.qualified() + "/" + std::string(name) +
                       ": server-side apply needs a field manager");
  }
  std::string target = r.path(ns, name, o.subresource) +
                       query_string({{"fieldManager", o.field_manager},
                                     {"force", type == PatchType::Apply && o.force ? "true" : ""}});
  auto rq = impl_->make_for(r, "PATCH", std::move(target));
  rq.body = body;
  rq.content_type = content_type(type);
  return impl_->call(std::move(rq), false);
}

Result<json> Client::remove(const Resource& r, std::string_view ns, std::string_view name,
                            const DeleteOptions& o) {
  std::string body;
  if (o.propagation_policy || o.precondition_uid || o.precondition_resource_version ||
      o.grace_period_seconds) {
    json d = {{"kind", "DeleteOptions"}, {"apiVersion", "v1"}};
    if (o.propagation_policy) d["propagationPolicy"] = *o.propagation_policy;
    if (o.grace_period_seconds) d["gracePeriodSeconds"] = *o.grace_period_seconds;
    if (o.precondition_uid) d["preconditions"]["uid"] = *o.precondition_uid;
    if (o.precondition_resource_version) {
      d["preconditions"]["resourceVersion"] = *o.precondition_resource_version;
    }
    body = d.dump();
  }
  auto rq = impl_->make_for(r, "DELETE", r.path(ns, name));
  rq.body = std::move(body);
  if (!rq.body.empty()) rq.content_type = kJson;
  return impl_->call(std::move(rq), false);
}

Status Client::watch(const Resource& r, std::string_view ns, const WatchOptions& options,
                     const std::function<void(WatchEvent&&)>& on_event, std::stop_token stop) {
  return impl_->watch(r, ns, options, on_event, stop);
}

}  // namespace vc::kube
