#pragma once
// Clock: the time source of the work queue's delays and rate limiters. Production code uses
// real_clock(); tests use FakeClock and move time by hand, so no test sleeps for a backoff.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace vc::kube::workqueue {

using SteadyClock = std::chrono::steady_clock;
using TimePoint = SteadyClock::time_point;
using Duration = SteadyClock::duration;

// Thread-safety: every method may be called from any thread.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint now() const = 0;

  // Blocks on cv (lock held, as for condition_variable::wait) until cv is notified or this clock
  // reaches deadline. May return early (spuriously); callers re-check their condition.
  virtual void wait_until(std::condition_variable& cv, std::unique_lock<std::mutex>& lock,
                          TimePoint deadline) = 0;

  // Registers fn to be called after the clock jumps forward (only fake clocks jump). A waiter
  // passes a function that takes its own mutex and notifies its condition variable, so a jump
  // between its check of now() and its wait cannot be missed. Returns an id for unsubscribe.
  virtual uint64_t subscribe(std::function<void()> fn) = 0;
  // After it returns, fn is not running and will not be called again.
  virtual void unsubscribe(uint64_t id) = 0;
};

// The process-wide real (steady) clock.
std::shared_ptr<Clock> real_clock();

// A clock that stands still until step() or set() moves it. Waiters wake only through the
// subscribed functions, never on real time.
class FakeClock : public Clock {
 public:
  FakeClock();
  TimePoint now() const override;
  void wait_until(std::condition_variable& cv, std::unique_lock<std::mutex>& lock,
                  TimePoint deadline) override;
  uint64_t subscribe(std::function<void()> fn) override;
  void unsubscribe(uint64_t id) override;

  void step(Duration d);
  void set(TimePoint t);
  // How many waiters are blocked in wait_until right now; tests use it to know that a background
  // thread has reached its wait before they move time.
  int waiters() const;

 private:
  void notify_listeners();

  mutable std::mutex time_mu_;  // guards now_ and waiters_
  TimePoint now_;
  int waiters_ = 0;

  // Held while listeners run so that unsubscribe() waits for a running call to finish.
  std::mutex listeners_mu_;
  uint64_t next_id_ = 1;
  std::vector<std::pair<uint64_t, std::function<void()>>> listeners_;
};

}  // namespace vc::kube::workqueue
