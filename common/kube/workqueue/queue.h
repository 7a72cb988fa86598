#pragma once
// Queue: the work queue of string keys ("namespace/name") between informer event handlers and
// controller workers. It deduplicates keys, never hands one key to two workers at once, and
// remembers a key re-added while it is being processed so that it runs again after done().
// add_after() parks a key until a delay has passed (requeue-after, backoff).
//
// Shutdown is prompt: after shutdown() get() returns nullopt at once, keys still queued or
// waiting are dropped (controllers are level-triggered; a restart relists everything), and
// add()/add_after() are ignored. shutdown_with_drain() additionally waits until every key handed
// out by get() has been marked done().
//
// Thread-safety: every method may be called from any thread. get() blocks; shutdown_with_drain()
// blocks and must not be called by a worker that holds an unfinished key. One internal thread
// moves delayed keys into the queue when due and refreshes the in-flight metrics.

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>

#include "common/kube/workqueue/clock.h"
#include "common/kube/workqueue/metrics.h"

namespace vc::kube::workqueue {

struct QueueOptions {
  std::string name;              // metric label; empty records no metrics; unique per process
  std::shared_ptr<Clock> clock;  // null = real_clock()
  // How often workqueue_unfinished_work_seconds and ..._longest_running_processor_seconds are
  // refreshed while keys are being processed.
  Duration metrics_period = std::chrono::milliseconds(500);
};

class Queue {
 public:
  explicit Queue(QueueOptions options = {});
  ~Queue();  // shutdown()
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  void add(const std::string& key);
  // Adds key once delay has passed; delay <= 0 adds now. A key already waiting keeps the earlier
  // of its two due times.
  void add_after(const std::string& key, Duration delay);
  // Blocks until a key is ready or the queue shuts down (then nullopt). The caller must call
  // done(key) when it has finished with the key.
  std::optional<std::string> get();
  // Throws std::logic_error for a key that get() did not hand out: that is a worker bug.
  void done(const std::string& key);

  size_t len() const;      // keys ready to be handed out (not waiting, not processing)
  size_t waiting() const;  // keys parked by add_after()
  bool shutting_down() const;
  void shutdown();
  void shutdown_with_drain();

 protected:
  Clock& clock() const { return *clock_; }
  const std::shared_ptr<Clock>& clock_ptr() const { return clock_; }
  QueueMetrics& metrics() { return metrics_; }

 private:
  struct Waiting {
    TimePoint due;
    uint64_t seq;  // insertion order breaks ties, so equal due times come out FIFO
    std::string key;
    bool operator<(const Waiting& o) const { return due != o.due ? due < o.due : seq < o.seq; }
  };

  void add_locked(const std::string& key, TimePoint now);
  void promote_due_locked(TimePoint now);
  void update_in_flight_metrics_locked(TimePoint now);
  void run_timer();

  const std::shared_ptr<Clock> clock_;
  const Duration metrics_period_;
  QueueMetrics metrics_;
  uint64_t clock_subscription_ = 0;

  mutable std::mutex mu_;
  std::condition_variable ready_cv_;    // getters: a key was queued or shutdown began
  std::condition_variable timer_cv_;    // timer thread: earlier due time, clock jump, shutdown
  std::condition_variable drained_cv_;  // shutdown_with_drain: processing_ became empty

  // Keys ready to hand out, FIFO. Invariant: every key in queue_ is in dirty_ and not in
  // processing_, and appears in queue_ once.
  std::deque<std::string> queue_;
  // Keys that need processing, with the time they were added (for queue duration). A key is in
  // dirty_ either because it is in queue_ or because it was re-added while in processing_; in
  // the second case done() moves it to queue_.
  std::unordered_map<std::string, TimePoint> dirty_;
  // Keys handed out by get() and not yet done(), with the time get() returned them. Invariant:
  // a key in processing_ is not in queue_, so no second worker can get it.
  std::unordered_map<std::string, TimePoint> processing_;
  // Keys parked by add_after(), earliest first. Invariant: waiting_index_ holds exactly the keys
  // of waiting_, each pointing at its single entry.
  std::set<Waiting> waiting_;
  std::unordered_map<std::string, std::set<Waiting>::iterator> waiting_index_;
  uint64_t next_seq_ = 0;
  bool shutting_down_ = false;

  std::once_flag join_once_;
  std::thread timer_;  // runs run_timer(); started last in the constructor
};

}  // namespace vc::kube::workqueue
