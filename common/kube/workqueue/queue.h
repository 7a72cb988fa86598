#pragma once
// Queue<Key>: the work queue between informer event handlers and controller workers. Keys are
// values (a "namespace/name" string, or a controller's own request struct): equal keys are one
// item. It deduplicates keys, never hands one key to two workers at once, and remembers a key
// re-added while it is being processed so that it runs again after done(). add_after() parks a
// key until a delay has passed (requeue-after, backoff).
//
// Key needs copy, ==, and Hash; key_text(key) names it in log lines and errors (a string key is
// its own text; other key types provide a describe(const Key&) found by argument lookup).
//
// Shutdown is prompt: after shutdown() get() returns nullopt at once, keys still queued or
// waiting are dropped (controllers are level-triggered; a restart relists everything), and
// add()/add_after() are ignored. shutdown_with_drain() additionally waits until every key handed
// out by get() has been marked done().
//
// Thread-safety: every method may be called from any thread. get() blocks; shutdown_with_drain()
// blocks and must not be called by a worker that holds an unfinished key. One internal thread
// moves delayed keys into the queue when due and refreshes the in-flight metrics.

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
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

// The text of a key for log lines and error messages.
template <class Key>
std::string key_text(const Key& key) {
  if constexpr (std::is_convertible_v<const Key&, std::string_view>) {
    return std::string(std::string_view(key));
  } else {
    return describe(key);
  }
}

namespace detail {
// The parts of a queue that do not depend on the key type, compiled once.
void name_timer_thread(const std::string& queue_name);
void log_dropped_at_shutdown(std::size_t queued, std::size_t waiting);
inline double seconds(Duration d) {
  return std::chrono::duration<double>(d).count();
}
}  // namespace detail

template <class Key, class Hash = std::hash<Key>>
class Queue {
 public:
  using key_type = Key;

  explicit Queue(QueueOptions options = {});
  virtual ~Queue();  // shutdown()
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  void add(const Key& key);
  // Adds key once delay has passed; delay <= 0 adds now. A key already waiting keeps the earlier
  // of its two due times.
  void add_after(const Key& key, Duration delay);
  // Blocks until a key is ready or the queue shuts down (then nullopt). The caller must call
  // done(key) when it has finished with the key.
  std::optional<Key> get();
  // Throws std::logic_error for a key that get() did not hand out: that is a worker bug.
  void done(const Key& key);

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
    Key key;
    bool operator<(const Waiting& o) const { return due != o.due ? due < o.due : seq < o.seq; }
  };

  void add_locked(const Key& key, TimePoint now);
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
  std::deque<Key> queue_;
  // Keys that need processing, with the time they were added (for queue duration). A key is in
  // dirty_ either because it is in queue_ or because it was re-added while in processing_; in
  // the second case done() moves it to queue_.
  std::unordered_map<Key, TimePoint, Hash> dirty_;
  // Keys handed out by get() and not yet done(), with the time get() returned them. Invariant:
  // a key in processing_ is not in queue_, so no second worker can get it.
  std::unordered_map<Key, TimePoint, Hash> processing_;
  // Keys parked by add_after(), earliest first. Invariant: waiting_index_ holds exactly the keys
  // of waiting_, each pointing at its single entry.
  std::set<Waiting> waiting_;
  std::unordered_map<Key, typename std::set<Waiting>::iterator, Hash> waiting_index_;
  uint64_t next_seq_ = 0;
  bool shutting_down_ = false;

  std::once_flag join_once_;
  std::thread timer_;  // runs run_timer(); started last in the constructor
};

template <class Key, class Hash>
Queue<Key, Hash>::Queue(QueueOptions options)
    : clock_(options.clock ? std::move(options.clock) : real_clock()),
      metrics_period_(options.metrics_period),
      metrics_(options.name) {
  // Taking mu_ before notifying means a clock jump cannot slip between the timer thread's look
  // at now() and its wait.
  clock_subscription_ = clock_->subscribe([this] {
    { std::lock_guard lock(mu_); }
    timer_cv_.notify_all();
  });
  timer_ = std::thread([this, name = options.name] {
    detail::name_timer_thread(name);
    run_timer();
  });
}

template <class Key, class Hash>
Queue<Key, Hash>::~Queue() {
  shutdown();
  clock_->unsubscribe(clock_subscription_);
}

template <class Key, class Hash>
void Queue<Key, Hash>::add(const Key& key) {
  std::lock_guard lock(mu_);
  if (shutting_down_) return;
  add_locked(key, clock_->now());
}

template <class Key, class Hash>
void Queue<Key, Hash>::add_locked(const Key& key, TimePoint now) {
  if (!dirty_.try_emplace(key, now).second) return;  // already queued or already re-added
  metrics_.add();
  if (processing_.contains(key)) return;  // done() requeues it
  queue_.push_back(key);
  metrics_.set_depth(static_cast<double>(queue_.size()));
  ready_cv_.notify_one();
}

template <class Key, class Hash>
void Queue<Key, Hash>::add_after(const Key& key, Duration delay) {
  std::lock_guard lock(mu_);
  if (shutting_down_) return;
  const TimePoint now = clock_->now();
  if (delay <= Duration::zero()) {
    add_locked(key, now);
    return;
  }
  // Clamped so that a caller's absurd delay cannot overflow the time point.
  const TimePoint due = now + std::min<Duration>(delay, std::chrono::hours(24 * 365));
  if (auto it = waiting_index_.find(key); it != waiting_index_.end()) {
    if (it->second->due <= due) return;
    waiting_.erase(it->second);
    waiting_index_.erase(it);
  }
  auto [pos, inserted] = waiting_.insert(Waiting{due, next_seq_++, key});
  waiting_index_.emplace(key, pos);
  if (pos == waiting_.begin()) timer_cv_.notify_one();  // the timer may sleep past the new due
}

template <class Key, class Hash>
std::optional<Key> Queue<Key, Hash>::get() {
  std::unique_lock lock(mu_);
  ready_cv_.wait(lock, [this] { return !queue_.empty() || shutting_down_; });
  if (shutting_down_) return std::nullopt;
  Key key = std::move(queue_.front());
  queue_.pop_front();
  const TimePoint now = clock_->now();
  auto dirty = dirty_.find(key);
  if (dirty == dirty_.end()) {
    throw std::logic_error("workqueue: queued key " + key_text(key) + " is not in the dirty set");
  }
  metrics_.observe_queue_duration(detail::seconds(now - dirty->second));
  dirty_.erase(dirty);
  // The timer refreshes the in-flight gauges only while something is being processed.
  if (processing_.empty() && metrics_.enabled()) timer_cv_.notify_one();
  processing_.emplace(key, now);
  metrics_.set_depth(static_cast<double>(queue_.size()));
  return key;
}

template <class Key, class Hash>
void Queue<Key, Hash>::done(const Key& key) {
  std::lock_guard lock(mu_);
  auto it = processing_.find(key);
  if (it == processing_.end()) {
    throw std::logic_error("workqueue: done(" + key_text(key) +
                           ") for a key that is not being processed");
  }
  const TimePoint now = clock_->now();
  metrics_.observe_work_duration(detail::seconds(now - it->second));
  processing_.erase(it);
  update_in_flight_metrics_locked(now);
  if (shutting_down_) {
    if (processing_.empty()) drained_cv_.notify_all();
    return;
  }
  if (dirty_.contains(key)) {
    queue_.push_back(key);
    metrics_.set_depth(static_cast<double>(queue_.size()));
    ready_cv_.notify_one();
  }
}

template <class Key, class Hash>
size_t Queue<Key, Hash>::len() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

template <class Key, class Hash>
size_t Queue<Key, Hash>::waiting() const {
  std::lock_guard lock(mu_);
  return waiting_.size();
}

template <class Key, class Hash>
bool Queue<Key, Hash>::shutting_down() const {
  std::lock_guard lock(mu_);
  return shutting_down_;
}

template <class Key, class Hash>
void Queue<Key, Hash>::shutdown() {
  {
    std::lock_guard lock(mu_);
    if (!shutting_down_) {
      shutting_down_ = true;
      if (!queue_.empty() || !waiting_.empty()) {
        detail::log_dropped_at_shutdown(queue_.size(), waiting_.size());
      }
      queue_.clear();
      dirty_.clear();
      waiting_.clear();
      waiting_index_.clear();
      metrics_.set_depth(0);
    }
  }
  ready_cv_.notify_all();
  timer_cv_.notify_all();
  std::call_once(join_once_, [this] {
    if (timer_.get_id() == std::this_thread::get_id()) {
      throw std::logic_error("workqueue: shutdown() called from the queue's own timer thread");
    }
    timer_.join();
  });
}

template <class Key, class Hash>
void Queue<Key, Hash>::shutdown_with_drain() {
  shutdown();
  std::unique_lock lock(mu_);
  drained_cv_.wait(lock, [this] { return processing_.empty(); });
}

template <class Key, class Hash>
void Queue<Key, Hash>::promote_due_locked(TimePoint now) {
  while (!waiting_.empty() && waiting_.begin()->due <= now) {
    auto node = waiting_.extract(waiting_.begin());
    waiting_index_.erase(node.value().key);
    add_locked(node.value().key, now);
  }
}

template <class Key, class Hash>
void Queue<Key, Hash>::update_in_flight_metrics_locked(TimePoint now) {
  if (!metrics_.enabled()) return;
  double total = 0;
  double longest = 0;
  for (const auto& [key, started] : processing_) {
    const double s = detail::seconds(now - started);
    total += s;
    longest = std::max(longest, s);
  }
  metrics_.set_unfinished_work(total);
  metrics_.set_longest_running(longest);
}

template <class Key, class Hash>
void Queue<Key, Hash>::run_timer() {
  std::unique_lock lock(mu_);
  TimePoint next_metrics = clock_->now();
  while (!shutting_down_) {
    const TimePoint now = clock_->now();
    promote_due_locked(now);
    TimePoint wake = waiting_.empty() ? TimePoint::max() : waiting_.begin()->due;
    if (metrics_.enabled() && !processing_.empty()) {
      if (now >= next_metrics) {
        update_in_flight_metrics_locked(now);
        next_metrics = now + metrics_period_;
      }
      wake = std::min(wake, next_metrics);
    }
    clock_->wait_until(timer_cv_, lock, wake);
  }
}

// The string-keyed queue is compiled once, in queue.cpp.
extern template class Queue<std::string>;

}  // namespace vc::kube::workqueue
