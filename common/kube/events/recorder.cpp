#include "common/kube/events/recorder.h"

#include <bit>
#include <stdexcept>

#include <prometheus/counter.h>

#include "common/log/log.h"
#include "common/metrics/registry.h"
#include "common/process/thread_name.h"

namespace vc::kube::events {
namespace {

prometheus::Counter& sent_counter(const char* verb) {
  static auto& family = prometheus::BuildCounter()
                            .Name("event_recorder_sent_total")
                            .Help("Events written to the API server, by verb (create, patch).")
                            .Register(vc::metrics::registry());
  return family.Add({{"verb", verb}});
}

prometheus::Counter& dropped_counter(const char* reason) {
  static auto& family = prometheus::BuildCounter()
                            .Name("event_recorder_dropped_total")
                            .Help(
                                "Events not written, by reason (queue_full, rejected, "
                                "retries_exhausted, shutdown).")
                            .Register(vc::metrics::registry());
  return family.Add({{"reason", reason}});
}

std::string describe(const ObjectReference& o) {
  return o.kind + " " + (o.namespace_.empty() ? o.name : o.namespace_ + "/" + o.name);
}

}  // namespace

AsyncEventRecorder::AsyncEventRecorder(Client& client, RecorderOptions options)
    : client_(client),
      options_(std::move(options)),
      cache_(options_.cache_capacity, options_.aggregation_window) {
  if (options_.source.component.empty()) {
    throw std::invalid_argument("event recorder: source component is required");
  }
  if (options_.queue_capacity == 0 || options_.max_attempts < 1 || !options_.now) {
    throw std::invalid_argument("event recorder: queue capacity, attempts and clock must be set");
  }
  sender_ = std::thread([this] {
    set_thread_name("events");
    run();
  });
}

AsyncEventRecorder::~AsyncEventRecorder() {
  stop();
}

void AsyncEventRecorder::event(const ObjectReference& object, EventType type, std::string reason,
                               std::string message) {
  Event e{object, type, std::move(reason), std::move(message), options_.now()};
  VC_LOG_DEBUG("event", kv("object", describe(object)), kv("type", to_string(type)),
               kv("reason", e.reason), kv("message", e.message));
  std::unique_lock lock(mu_);
  // Event names are "<object>.<unix nanos>": stamps strictly increase so that two events
  // recorded in the same clock tick do not collide.
  if (e.time <= last_stamp_) e.time = last_stamp_ + WallTime::duration(1);
  last_stamp_ = e.time;
  if (stopping_) {
    lock.unlock();
    return drop(e, "shutdown", "recorder stopped");
  }
  if (queue_.size() >= options_.queue_capacity) {
    lock.unlock();
    return drop(e, "queue_full", "event queue full");
  }
  queue_.push_back(std::move(e));
  cv_.notify_one();
}

bool AsyncEventRecorder::flush(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return idle_cv_.wait_for(lock, timeout, [&] { return queue_.empty() && !busy_; });
}

void AsyncEventRecorder::stop() {
  std::lock_guard stop_lock(stop_mu_);
  {
    std::lock_guard lock(mu_);
    if (!stopping_) {
      stopping_ = true;
      drain_deadline_ = std::chrono::steady_clock::now() + options_.stop_drain_timeout;
    }
    cv_.notify_all();
  }
  if (sender_.joinable()) sender_.join();
}

std::uint64_t AsyncEventRecorder::dropped() const {
  std::lock_guard lock(mu_);
  return dropped_;
}

void AsyncEventRecorder::run() {
  for (;;) {
    Event e;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) break;  // stopping, and everything was sent
      if (stopping_ && std::chrono::steady_clock::now() >= drain_deadline_) {
        std::deque<Event> rest;
        rest.swap(queue_);
        lock.unlock();
        for (const Event& left : rest) drop(left, "shutdown", "stop drain timeout passed");
        lock.lock();
        idle_cv_.notify_all();
        break;
      }
      e = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
    }
    send(e);
    std::lock_guard lock(mu_);
    busy_ = false;
    if (queue_.empty()) idle_cv_.notify_all();
  }
}

void AsyncEventRecorder::send(const Event& e) {
  Plan plan = cache_.plan(e);
  std::chrono::milliseconds delay = options_.retry_delay;
  for (int attempt = 1;; ++attempt) {
    const bool patching = plan.verb == Plan::Verb::Patch;
    auto r = patching ? client_.patch(resources::events, plan.namespace_, plan.name,
                                      PatchType::Merge, make_repeat_patch(e, plan.count).dump())
                      : client_.create(resources::events, plan.namespace_,
                                       make_event(e, options_.source, plan.name, plan.count,
                                                  plan.first_timestamp));
    if (r.ok()) {
      sent_counter(patching ? "patch" : "create").Increment();
      cache_.remember(e, plan);
      return;
    }
    if (patching && r.is(ErrorKind::NotFound)) {
      // The Event was deleted (TTL or by hand): write it anew, keeping its name and count.
      cache_.forget(e);
      plan.verb = Plan::Verb::Create;
      continue;
    }
    if (!r.error().retryable()) return drop(e, "rejected", r.error().describe());
    if (attempt >= options_.max_attempts) {
      return drop(e, "retries_exhausted", r.error().describe());
    }
    if (!sleep(delay)) return drop(e, "shutdown", r.error().describe());
    delay *= 2;
  }
}

bool AsyncEventRecorder::sleep(std::chrono::milliseconds d) {
  std::unique_lock lock(mu_);
  return !cv_.wait_for(lock, d, [&] { return stopping_; });
}

void AsyncEventRecorder::drop(const Event& e, const char* reason, const std::string& detail) {
  dropped_counter(reason).Increment();
  std::uint64_t n;
  {
    std::lock_guard lock(mu_);
    n = ++dropped_;
  }
  // A full queue can drop thousands in a burst: log the 1st, 2nd, 4th, 8th, ... drop; the
  // metric has the exact count.
  if (std::has_single_bit(n)) {
    VC_LOG_WARN("event dropped", kv("object", describe(e.object)), kv("reason", e.reason),
                kv("why", reason), kv("detail", detail), kv("dropped_total", n));
  }
}

}  // namespace vc::kube::events
