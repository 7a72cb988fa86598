#include "common/kube/workqueue/clock.h"

#include <algorithm>

namespace vc::kube::workqueue {

namespace {

class RealClock : public Clock {
 public:
  TimePoint now() const override { return SteadyClock::now(); }
  void wait_until(std::condition_variable& cv, std::unique_lock<std::mutex>& lock,
                  TimePoint deadline) override {
    if (deadline == TimePoint::max()) {
      cv.wait(lock);
    } else {
      cv.wait_until(lock, deadline);
    }
  }
  // The real clock never jumps, so there is nothing to tell subscribers.
  uint64_t subscribe(std::function<void()>) override { return 0; }
  void unsubscribe(uint64_t) override {}
};

}  // namespace

std::shared_ptr<Clock> real_clock() {
  static const std::shared_ptr<Clock> clock = std::make_shared<RealClock>();
  return clock;
}

// Starts at an arbitrary non-zero point so that "time zero" is never special in tests.
FakeClock::FakeClock() : now_(TimePoint{} + std::chrono::hours(1000)) {}

TimePoint FakeClock::now() const {
  std::lock_guard lock(time_mu_);
  return now_;
}

void FakeClock::wait_until(std::condition_variable& cv, std::unique_lock<std::mutex>& lock,
                           TimePoint deadline) {
  if (now() >= deadline) return;
  {
    std::lock_guard l(time_mu_);
    ++waiters_;
  }
  cv.wait(lock);
  std::lock_guard l(time_mu_);
  --waiters_;
}

uint64_t FakeClock::subscribe(std::function<void()> fn) {
  std::lock_guard lock(listeners_mu_);
  listeners_.emplace_back(next_id_, std::move(fn));
  return next_id_++;
}

void FakeClock::unsubscribe(uint64_t id) {
  std::lock_guard lock(listeners_mu_);
  std::erase_if(listeners_, [id](const auto& l) { return l.first == id; });
}

void FakeClock::step(Duration d) {
  {
    std::lock_guard lock(time_mu_);
    now_ += d;
  }
  notify_listeners();
}

void FakeClock::set(TimePoint t) {
  {
    std::lock_guard lock(time_mu_);
    now_ = t;
  }
  notify_listeners();
}

int FakeClock::waiters() const {
  std::lock_guard lock(time_mu_);
  return waiters_;
}

void FakeClock::notify_listeners() {
  std::lock_guard lock(listeners_mu_);
  for (auto& [id, fn] : listeners_) fn();
}

}  // namespace vc::kube::workqueue
