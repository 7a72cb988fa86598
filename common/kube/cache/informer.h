#pragma once
// Informer (a shared index informer): one reflector feeding one Store, and event handlers told
// about every change. Controllers read the store (store().get, by_index) and enqueue keys from
// the handlers.
//
//   Informer pods(client, resources::pods);
//   pods.add_indexer("job", job_of_pod);                  // before start()
//   pods.add_event_handler({.on_add = ..., .on_update = ..., .on_delete = ...});
//   pods.start();
//   pods.wait_for_sync(stop, deadline);
//
// Order and consistency: the store is updated first, then the change is queued for the handlers,
// so a handler reading the store sees that change or a later one. Handlers run one call at a
// time, in event order, never while a store or ingest lock is held: a watch event's handlers run
// on the reflector thread right after the store update (a hand-off to another thread per event
// cost two context switches, most of the informer's CPU under load), everything else (lists,
// resyncs, late handlers' adds, and watch events that arrive while those are delivered) on the
// informer's distribution thread. A handler must therefore be quick and must not wait for this
// informer's next event. A handler
// registered late first gets a synthetic on_add for every object already cached, then the
// changes that follow; it never sees a change twice. On a relist, objects that vanished meanwhile
// get on_delete with their last cached state, and objects whose resourceVersion changed get
// on_update. A periodic resync (when resync_period > 0) calls on_update(obj, obj) for every
// cached object; equal old and new mean "nothing changed, check again".
//
// Objects the transform cannot decode (a field of the wrong type, CRD version skew) exist in the
// cluster all the same, so they are never reported deleted: whether rejected on an Added or
// Modified event or in a relist, the object stays known as undecodable (undecodable(key)) and
// the store keeps its last decoded version, if it ever had one. Handlers hear nothing of the
// rejection: a delete would be false (the Job controller would forget a running Job), and an
// update could only repeat the last decoded object, which the store still serves to anyone who
// reads it - the controllers keep acting on what they last understood, as they would while a
// watch is down. When a later version decodes, handlers get an update from the last decoded
// version (or an add, if there was none); when the object is really deleted (a Deleted event,
// or a relist without it), a delete with the last decoded version (or nothing, if there was
// none). Each rejected object version is reported once - counted, logged and handed to
// InformerOptions::on_decode_rejection - however often relists see it again.
//
// has_synced() becomes true once the first complete list is in the store and its events have
// been delivered to the handlers registered so far. A handler registered later is synced
// (handler_synced) once its synthetic adds have been delivered: a controller that joins a running
// shared informer waits for that before acting on "everything it knows".
//
// Threads: every method may be called from any thread, except that start() and stop() must not
// be called from a handler, and add_indexer() only before start(). A handler removed with
// remove_event_handler() may still receive calls already being distributed.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "common/kube/cache/decode_rejection.h"
#include "common/kube/cache/object.h"
#include "common/kube/cache/reflector.h"
#include "common/kube/cache/store.h"
#include "common/kube/cache/written_objects.h"
#include "common/kube/client.h"

namespace vc::kube::cache {

// Any of the callbacks may be empty.
struct EventHandler {
  std::function<void(const ObjectPtr& obj)> on_add;
  std::function<void(const ObjectPtr& old_obj, const ObjectPtr& new_obj)> on_update;
  std::function<void(const ObjectPtr& obj)> on_delete;
};

using HandlerId = uint64_t;

struct InformerOptions {
  std::string namespace_;  // "" = all namespaces
  std::string label_selector;
  std::string field_selector;
  Transform transform;
  std::chrono::milliseconds resync_period{0};  // 0 = no periodic resync
  int64_t page_size = 500;
  BackoffOptions backoff;
  std::chrono::milliseconds healthy_after{std::chrono::minutes(2)};
  // Told about each object version the transform rejects (see above); null = log and count only.
  DecodeRejectionSink on_decode_rejection;
};

class Informer : private ReflectorSink {
 public:
  Informer(Client& client, const Resource& resource, InformerOptions options = {});
  ~Informer() override;  // stop()
  Informer(const Informer&) = delete;
  Informer& operator=(const Informer&) = delete;

  // See Store::add_indexer. Throws std::logic_error after start().
  bool add_indexer(const std::string& name, IndexFunc fn);
  HandlerId add_event_handler(EventHandler handler);
  void remove_event_handler(HandlerId id);

  // Starts the reflector and distribution threads. A second call does nothing; a start after
  // stop() throws std::logic_error.
  void start();
  // Ends the watch and both threads promptly; queued handler calls are dropped. The store keeps
  // its contents and stays readable.
  void stop();

  bool has_synced() const;
  // Waits until has_synced(), stop is requested or deadline passes; returns has_synced().
  bool wait_for_sync(std::stop_token stop, std::chrono::steady_clock::time_point deadline) const;
  // Whether this handler has been told about every object cached when it was registered.
  bool handler_synced(HandlerId id) const;
  bool wait_for_handler_sync(HandlerId id, std::stop_token stop,
                             std::chrono::steady_clock::time_point deadline) const;

  const Store& store() const { return store_; }
  // Where a writer offers the objects it wrote, so that their watch events are not decoded again
  // (see WrittenObjects). Thread-safe.
  WrittenObjects& written() { return written_; }
  const Resource& resource() const { return resource_; }
  const InformerOptions& options() const { return options_; }
  std::string last_resource_version() const { return reflector_.last_resource_version(); }
  // Whether the newest version seen of the object with this key could not be decoded (the
  // store then holds its last decoded version, or nothing).
  bool undecodable(const std::string& key) const;
  std::vector<std::string> undecodable_keys() const;

 private:
  struct Notification {
    enum class Kind { Add, Update, Delete, Synced } kind = Kind::Add;
    ObjectPtr old_obj;
    ObjectPtr new_obj;
    HandlerId only = 0;    // non-zero: for this one (late) handler only
    HandlerId newest = 0;  // handlers registered after the change was queued skip it
  };
  using Handlers = std::map<HandlerId, EventHandler>;

  // ReflectorSink, called on the reflector thread.
  void replace(std::vector<ObjectPtr> objects, const std::string& resource_version,
               std::vector<DecodeRejection> rejected) override;
  void apply(WatchEvent::Type type, ObjectPtr obj) override;
  void reject(DecodeRejection rejection) override;
  void remove(const std::string& key) override;

  // Marks rejection's object undecodable; true when this version was not reported before.
  bool mark_undecodable_locked(const DecodeRejection& rejection);
  // Counts, logs and hands on one newly rejected object version; no lock held.
  void report(DecodeRejection rejection) const;

  void push_locked(Notification::Kind kind, ObjectPtr old_obj, ObjectPtr new_obj);
  // On the reflector thread, no lock held: delivers what is pending right here unless the
  // distribution thread is delivering (then it is woken instead).
  void deliver_here();
  // Dispatches pending_ in order until it is empty or stop is requested; the caller holds
  // deliver_mu_ (passed in as proof).
  void deliver_pending(std::unique_lock<std::mutex>& delivering, std::stop_token stop);
  void queue_resync();
  void distribute(std::stop_token stop);
  void dispatch(const Notification& n, const Handlers& handlers);

  const Resource resource_;
  const InformerOptions options_;
  Store store_;
  WrittenObjects written_;  // before reflector_, which points at it
  Reflector reflector_;

  // Held while a change is applied to the store and queued for the handlers, while a late
  // handler's snapshot is taken, and while a resync is queued: so that the queue order matches
  // the store's history. Lock order: ingest_mu_, then dist_mu_ (the store's lock is innermost).
  mutable std::mutex ingest_mu_;
  bool synced_queued_ = false;  // guarded by ingest_mu_
  // Key -> resourceVersion of the newest version seen, for objects whose newest version could
  // not be decoded. Guarded by ingest_mu_.
  std::map<std::string, std::string> undecodable_;

  // Held by whichever thread dispatches to handlers (the reflector for its own watch events,
  // else the distribution thread), so events reach handlers one at a time and in order. Lock
  // order: deliver_mu_, then dist_mu_; never held together with ingest_mu_.
  std::mutex deliver_mu_;

  std::mutex dist_mu_;
  std::condition_variable_any dist_cv_;
  std::deque<Notification> pending_;                                         // guarded by dist_mu_
  std::shared_ptr<const Handlers> handlers_ = std::make_shared<Handlers>();  // by dist_mu_
  HandlerId next_handler_id_ = 1;                                            // guarded by dist_mu_

  bool handler_synced_locked(HandlerId id) const;

  std::atomic<bool> synced_{false};
  mutable std::mutex sync_mu_;
  mutable std::condition_variable_any sync_cv_;
  HandlerId synced_upto_ = 0;                    // handlers up to this id synced with the list
  std::vector<HandlerId> late_handlers_synced_;  // later handlers whose adds were delivered

  std::mutex lifecycle_mu_;
  bool started_ = false;
  bool stopped_ = false;
  std::jthread distribution_thread_;
  std::jthread reflector_thread_;
};

// Waits until every informer has synced, stop is requested or deadline passes; true if all
// synced. Logs the resources that had not synced when it gives up.
bool wait_for_cache_sync(const std::vector<const Informer*>& informers, std::stop_token stop,
                         std::chrono::steady_clock::time_point deadline);

}  // namespace vc::kube::cache
