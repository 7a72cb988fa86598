#include "common/kube/rate_limiter.h"

#include <algorithm>

namespace vc::kube {

RateLimiter::RateLimiter(double qps, int burst, NowFn now)
    : qps_(qps),
      burst_(std::max(1, burst)),
      now_(now ? std::move(now) : NowFn([] { return Clock::now(); })),
      tokens_(burst_),
      last_(now_()) {}

void RateLimiter::refill(Clock::time_point now) {
  if (now <= last_) return;
  const double elapsed = std::chrono::duration<double>(now - last_).count();
  tokens_ = std::min(burst_, tokens_ + elapsed * qps_);
  last_ = now;
}

RateLimiter::Clock::duration RateLimiter::reserve() {
  if (!enabled()) return Clock::duration::zero();
  std::lock_guard lock(mu_);
  refill(now_());
  tokens_ -= 1;
  if (tokens_ >= 0) return Clock::duration::zero();
  return std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(-tokens_ / qps_));
}

void RateLimiter::cancel_reservation() {
  if (!enabled()) return;
  std::lock_guard lock(mu_);
  tokens_ = std::min(burst_, tokens_ + 1);
}

bool RateLimiter::acquire(std::stop_token stop) {
  if (stop.stop_requested()) return false;
  const auto wait = reserve();
  if (wait <= Clock::duration::zero()) return true;
  std::unique_lock lock(mu_);
  // A reserved token is ours at a fixed time: only a stop request can end the wait early.
  cv_.wait_for(lock, stop, wait, [] { return false; });
  if (stop.stop_requested()) {
    lock.unlock();
    cancel_reservation();
    return false;
  }
  return true;
}

bool RateLimiter::try_acquire() {
  if (!enabled()) return true;
  std::lock_guard lock(mu_);
  refill(now_());
  // Below one token, waiters have reserved what refills first; taking it would jump the queue.
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

}  // namespace vc::kube
