#include "common/kube/workqueue/queue.h"

#include <algorithm>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "common/process/thread_name.h"

namespace vc::kube::workqueue {

namespace {
double seconds(Duration d) {
  return std::chrono::duration<double>(d).count();
}
}  // namespace

Queue::Queue(QueueOptions options)
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
    set_thread_name("t:" + name);
    run_timer();
  });
}

Queue::~Queue() {
  shutdown();
  clock_->unsubscribe(clock_subscription_);
}

void Queue::add(const std::string& key) {
  std::lock_guard lock(mu_);
  if (shutting_down_) return;
  add_locked(key, clock_->now());
}

void Queue::add_locked(const std::string& key, TimePoint now) {
  if (!dirty_.try_emplace(key, now).second) return;  // already queued or already re-added
  metrics_.add();
  if (processing_.contains(key)) return;  // done() requeues it
  queue_.push_back(key);
  metrics_.set_depth(static_cast<double>(queue_.size()));
  ready_cv_.notify_one();
}

void Queue::add_after(const std::string& key, Duration delay) {
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

std::optional<std::string> Queue::get() {
  std::unique_lock lock(mu_);
  ready_cv_.wait(lock, [this] { return !queue_.empty() || shutting_down_; });
  if (shutting_down_) return std::nullopt;
  std::string key = std::move(queue_.front());
  queue_.pop_front();
  const TimePoint now = clock_->now();
  auto dirty = dirty_.find(key);
  if (dirty == dirty_.end()) {
    throw std::logic_error("workqueue: queued key " + key + " is not in the dirty set");
  }
  metrics_.observe_queue_duration(seconds(now - dirty->second));
  dirty_.erase(dirty);
  // The timer refreshes the in-flight gauges only while something is being processed.
  if (processing_.empty() && metrics_.enabled()) timer_cv_.notify_one();
  processing_.emplace(key, now);
  metrics_.set_depth(static_cast<double>(queue_.size()));
  return key;
}

void Queue::done(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = processing_.find(key);
  if (it == processing_.end()) {
    throw std::logic_error("workqueue: done(" + key + ") for a key that is not being processed");
  }
  const TimePoint now = clock_->now();
  metrics_.observe_work_duration(seconds(now - it->second));
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

size_t Queue::len() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

size_t Queue::waiting() const {
  std::lock_guard lock(mu_);
  return waiting_.size();
}

bool Queue::shutting_down() const {
  std::lock_guard lock(mu_);
  return shutting_down_;
}

void Queue::shutdown() {
  {
    std::lock_guard lock(mu_);
    if (!shutting_down_) {
      shutting_down_ = true;
      if (!queue_.empty() || !waiting_.empty()) {
        spdlog::debug("workqueue shutting down, dropping keys queued={} waiting={}", queue_.size(),
                      waiting_.size());
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

void Queue::shutdown_with_drain() {
  shutdown();
  std::unique_lock lock(mu_);
  drained_cv_.wait(lock, [this] { return processing_.empty(); });
}

void Queue::promote_due_locked(TimePoint now) {
  while (!waiting_.empty() && waiting_.begin()->due <= now) {
    auto node = waiting_.extract(waiting_.begin());
    waiting_index_.erase(node.value().key);
    add_locked(node.value().key, now);
  }
}

void Queue::update_in_flight_metrics_locked(TimePoint now) {
  if (!metrics_.enabled()) return;
  double total = 0;
  double longest = 0;
  for (const auto& [key, started] : processing_) {
    const double s = seconds(now - started);
    total += s;
    longest = std::max(longest, s);
  }
  metrics_.set_unfinished_work(total);
  metrics_.set_longest_running(longest);
}

void Queue::run_timer() {
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

}  // namespace vc::kube::workqueue
