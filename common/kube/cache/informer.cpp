#include "common/kube/cache/informer.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <spdlog/spdlog.h>

#include "common/process/thread_name.h"

namespace vc::kube::cache {

namespace {

ReflectorOptions reflector_options(const InformerOptions& o, WrittenObjects* written) {
  ReflectorOptions r;
  r.written = written;
  r.namespace_ = o.namespace_;
  r.label_selector = o.label_selector;
  r.field_selector = o.field_selector;
  r.page_size = o.page_size;
  r.transform = o.transform.fn;
  r.transform_reads = o.transform.reads;
  r.backoff = o.backoff;
  r.healthy_after = o.healthy_after;
  return r;
}

}  // namespace

Informer::Informer(Client& client, const Resource& resource, InformerOptions options)
    : resource_(resource),
      options_(std::move(options)),
      reflector_(client, resource_, reflector_options(options_, &written_), *this) {}

Informer::~Informer() {
  stop();
}

bool Informer::add_indexer(const std::string& name, IndexFunc fn) {
  std::lock_guard lock(lifecycle_mu_);
  if (started_) {
    throw std::logic_error("informer " + resource_.qualified() + ": index " + name +
                           " registered after start()");
  }
  return store_.add_indexer(name, std::move(fn));
}

HandlerId Informer::add_event_handler(EventHandler handler) {
  std::lock_guard ingest(ingest_mu_);
  // Under ingest_mu_ no change can be between the store and the queue, so the snapshot is
  // exactly what the queued changes lead up to.
  std::vector<ObjectPtr> existing = store_.list();
  std::lock_guard dist(dist_mu_);
  const HandlerId id = next_handler_id_++;
  auto handlers = std::make_shared<Handlers>(*handlers_);
  handlers->emplace(id, std::move(handler));
  handlers_ = std::move(handlers);
  for (auto& obj : existing) {
    pending_.push_back({Notification::Kind::Add, nullptr, std::move(obj), id, id});
  }
  // Before the first list is queued, the handler syncs with the informer; after, on its own.
  if (synced_queued_) {
    pending_.push_back({Notification::Kind::Synced, nullptr, nullptr, id, id});
    dist_cv_.notify_one();
  }
  return id;
}

void Informer::remove_event_handler(HandlerId id) {
  std::lock_guard dist(dist_mu_);
  auto handlers = std::make_shared<Handlers>(*handlers_);
  handlers->erase(id);
  handlers_ = std::move(handlers);
}

void Informer::start() {
  std::lock_guard lock(lifecycle_mu_);
  if (stopped_) {
    throw std::logic_error("informer " + resource_.qualified() + ": start() after stop()");
  }
  if (started_) return;
  started_ = true;
  // Thread names: "d:" distributes to handlers, "r:" lists and watches, then the resource.
  distribution_thread_ = std::jthread([this](std::stop_token stop) {
    set_thread_name("d:" + std::string(resource_.plural));
    distribute(stop);
  });
  reflector_thread_ = std::jthread([this](std::stop_token stop) {
    set_thread_name("r:" + std::string(resource_.plural));
    reflector_.run(stop);
  });
}

void Informer::stop() {
  std::lock_guard lock(lifecycle_mu_);
  if (stopped_ || !started_) {
    stopped_ = started_;
    return;
  }
  stopped_ = true;
  reflector_thread_.request_stop();
  distribution_thread_.request_stop();
  reflector_thread_.join();
  distribution_thread_.join();
}

bool Informer::has_synced() const {
  return synced_.load();
}

bool Informer::handler_synced_locked(HandlerId id) const {
  if (synced_ && id <= synced_upto_) return true;
  return std::find(late_handlers_synced_.begin(), late_handlers_synced_.end(), id) !=
         late_handlers_synced_.end();
}

bool Informer::handler_synced(HandlerId id) const {
  std::lock_guard lock(sync_mu_);
  return handler_synced_locked(id);
}

bool Informer::wait_for_handler_sync(HandlerId id, std::stop_token stop,
                                     std::chrono::steady_clock::time_point deadline) const {
  std::unique_lock lock(sync_mu_);
  return sync_cv_.wait_until(lock, stop, deadline, [&] { return handler_synced_locked(id); });
}

bool Informer::wait_for_sync(std::stop_token stop,
                             std::chrono::steady_clock::time_point deadline) const {
  std::unique_lock lock(sync_mu_);
  return sync_cv_.wait_until(lock, stop, deadline, [this] { return synced_.load(); });
}

void Informer::push_locked(Notification::Kind kind, ObjectPtr old_obj, ObjectPtr new_obj) {
  pending_.push_back({kind, std::move(old_obj), std::move(new_obj), 0, next_handler_id_ - 1});
}

void Informer::replace(std::vector<ObjectPtr> objects, const std::string&,
                       std::vector<DecodeRejection> rejected) {
  std::vector<const DecodeRejection*> fresh;  // versions not reported before
  {
    std::lock_guard ingest(ingest_mu_);
    // The list is the whole collection: an object it holds decoded is no longer undecodable,
    // and one it does not hold at all is gone.
    const std::map<std::string, std::string> before = std::exchange(undecodable_, {});
    for (const DecodeRejection& r : rejected) {
      std::string key = r.key();
      // The object exists: its last decoded version stays cached rather than be deleted.
      if (ObjectPtr last = store_.get(key)) objects.push_back(std::move(last));
      auto seen = before.find(key);
      if (seen == before.end() || seen->second != r.resource_version) fresh.push_back(&r);
      undecodable_.insert_or_assign(std::move(key), r.resource_version);
    }
    std::vector<StoreChange> changes = store_.replace(std::move(objects));
    std::lock_guard dist(dist_mu_);
    for (auto& c : changes) {
      if (!c.old_obj) {
        push_locked(Notification::Kind::Add, nullptr, std::move(c.new_obj));
      } else if (!c.new_obj) {
        push_locked(Notification::Kind::Delete, nullptr, std::move(c.old_obj));
      } else {
        push_locked(Notification::Kind::Update, std::move(c.old_obj), std::move(c.new_obj));
      }
    }
    if (!synced_queued_) {
      push_locked(Notification::Kind::Synced, nullptr, nullptr);
      synced_queued_ = true;
    }
    dist_cv_.notify_one();
  }
  for (const DecodeRejection* r : fresh) report(*r);
}

void Informer::apply(WatchEvent::Type type, ObjectPtr obj) {
  {
    std::lock_guard ingest(ingest_mu_);
    // This version decoded (or the object is gone): it is undecodable no more.
    if (!undecodable_.empty()) undecodable_.erase(obj->key());
    if (type == WatchEvent::Type::Deleted) {
      if (!store_.remove(obj->key())) {
        // Never added, so handlers must not hear of its deletion either.
        spdlog::debug("informer delete of an unknown object resource={} object={}",
                      resource_.qualified(), obj->key());
        return;
      }
      std::lock_guard dist(dist_mu_);
      push_locked(Notification::Kind::Delete, nullptr, std::move(obj));
    } else {
      ObjectPtr old = store_.upsert(obj);
      std::lock_guard dist(dist_mu_);
      if (old) {
        push_locked(Notification::Kind::Update, std::move(old), std::move(obj));
      } else {
        push_locked(Notification::Kind::Add, nullptr, std::move(obj));
      }
    }
  }
  deliver_here();
}

void Informer::reject(DecodeRejection rejection) {
  bool fresh = false;
  {
    // The store and the handlers are left alone: see the header.
    std::lock_guard ingest(ingest_mu_);
    fresh = mark_undecodable_locked(rejection);
  }
  if (fresh) report(std::move(rejection));
}

bool Informer::mark_undecodable_locked(const DecodeRejection& rejection) {
  auto [it, inserted] = undecodable_.try_emplace(rejection.key(), rejection.resource_version);
  if (inserted) return true;
  if (it->second == rejection.resource_version) return false;
  it->second = rejection.resource_version;
  return true;
}

void Informer::report(DecodeRejection rejection) const {
  record_decode_rejection(rejection.resource);
  if (const ObjectPtr kept = store_.get(rejection.key())) {
    rejection.cached_resource_version = kept->resource_version;
  }
  spdlog::warn(
      "informer cannot decode object, keeping it as undecodable resource={} object={} "
      "resourceVersion={} cached_resourceVersion={} error=\"{}\"",
      resource_.qualified(), rejection.key(), rejection.resource_version,
      rejection.cached_resource_version.empty() ? "none" : rejection.cached_resource_version,
      rejection.error);
  if (!options_.on_decode_rejection) return;
  try {
    options_.on_decode_rejection(rejection);
  } catch (const std::exception& e) {
    spdlog::error("informer decode rejection sink threw resource={} object={} error=\"{}\"",
                  resource_.qualified(), rejection.key(), e.what());
  }
}

bool Informer::undecodable(const std::string& key) const {
  std::lock_guard ingest(ingest_mu_);
  return undecodable_.contains(key);
}

std::vector<std::string> Informer::undecodable_keys() const {
  std::lock_guard ingest(ingest_mu_);
  std::vector<std::string> out;
  out.reserve(undecodable_.size());
  for (const auto& [key, rv] : undecodable_) out.push_back(key);
  return out;
}

void Informer::deliver_here() {
  std::unique_lock delivering(deliver_mu_, std::try_to_lock);
  if (!delivering) {
    // The distribution thread is delivering: its wait checks pending_ before it sleeps, so the
    // notification just queued cannot be left behind.
    std::lock_guard dist(dist_mu_);
    dist_cv_.notify_one();
    return;
  }
  deliver_pending(delivering, {});
}

void Informer::deliver_pending(std::unique_lock<std::mutex>& delivering, std::stop_token stop) {
  (void)delivering;  // held by the caller: one deliverer at a time keeps the event order
  for (;;) {
    std::deque<Notification> batch;
    std::shared_ptr<const Handlers> handlers;
    {
      std::lock_guard lock(dist_mu_);
      if (pending_.empty()) return;
      batch.swap(pending_);
      handlers = handlers_;
    }
    for (const auto& n : batch) {
      if (stop.stop_requested()) return;
      dispatch(n, *handlers);
    }
  }
}

void Informer::remove(const std::string& key) {
  std::lock_guard ingest(ingest_mu_);
  undecodable_.erase(key);
  ObjectPtr old = store_.remove(key);
  if (!old) return;
  spdlog::warn("informer deleting object with its last cached state resource={} object={}",
               resource_.qualified(), key);
  std::lock_guard dist(dist_mu_);
  push_locked(Notification::Kind::Delete, nullptr, std::move(old));
  dist_cv_.notify_one();
}

void Informer::queue_resync() {
  std::lock_guard ingest(ingest_mu_);
  if (!synced_queued_) return;  // nothing listed yet
  std::vector<ObjectPtr> objects = store_.list();
  std::lock_guard dist(dist_mu_);
  for (auto& obj : objects) push_locked(Notification::Kind::Update, obj, obj);
  if (!objects.empty()) dist_cv_.notify_one();
}

void Informer::distribute(std::stop_token stop) {
  using Clock = std::chrono::steady_clock;
  const bool resync = options_.resync_period.count() > 0;
  Clock::time_point next_resync =
      resync ? Clock::now() + options_.resync_period : Clock::time_point::max();
  while (!stop.stop_requested()) {
    {
      std::unique_lock lock(dist_mu_);
      dist_cv_.wait_until(lock, stop, next_resync, [this] { return !pending_.empty(); });
      if (stop.stop_requested()) return;
    }
    {
      // Blocks while the reflector thread delivers; then whatever it left is ours.
      std::unique_lock delivering(deliver_mu_);
      deliver_pending(delivering, stop);
    }
    if (stop.stop_requested()) return;
    if (resync && Clock::now() >= next_resync) {
      queue_resync();
      next_resync = Clock::now() + options_.resync_period;
    }
  }
}

void Informer::dispatch(const Notification& n, const Handlers& handlers) {
  if (n.kind == Notification::Kind::Synced) {
    {
      std::lock_guard lock(sync_mu_);
      if (n.only != 0) {
        late_handlers_synced_.push_back(n.only);
      } else {
        synced_ = true;
        synced_upto_ = n.newest;
      }
    }
    sync_cv_.notify_all();
    if (n.only == 0) {
      spdlog::info("informer synced resource={} objects={}", resource_.qualified(), store_.size());
    }
    return;
  }
  auto call = [&](HandlerId id, const EventHandler& h) {
    try {
      switch (n.kind) {
        case Notification::Kind::Add:
          if (h.on_add) h.on_add(n.new_obj);
          break;
        case Notification::Kind::Update:
          if (h.on_update) h.on_update(n.old_obj, n.new_obj);
          break;
        case Notification::Kind::Delete:
          if (h.on_delete) h.on_delete(n.new_obj);
          break;
        case Notification::Kind::Synced:
          break;
      }
    } catch (const std::exception& e) {
      // A handler bug must not stop the other handlers or later events.
      spdlog::error("informer event handler threw resource={} handler={} error=\"{}\"",
                    resource_.qualified(), id, e.what());
    }
  };
  if (n.only != 0) {
    if (auto it = handlers.find(n.only); it != handlers.end()) call(it->first, it->second);
    return;
  }
  for (const auto& [id, h] : handlers) {
    if (id > n.newest) break;
    call(id, h);
  }
}

bool wait_for_cache_sync(const std::vector<const Informer*>& informers, std::stop_token stop,
                         std::chrono::steady_clock::time_point deadline) {
  bool all = true;
  for (const Informer* informer : informers) {
    if (!informer->wait_for_sync(stop, deadline)) all = false;
  }
  if (!all) {
    std::string missing;
    for (const Informer* informer : informers) {
      if (informer->has_synced()) continue;
      if (!missing.empty()) missing += ",";
      missing += informer->resource().qualified();
    }
    spdlog::warn("caches not synced resources={}", missing);
  }
  return all;
}

}  // namespace vc::kube::cache
