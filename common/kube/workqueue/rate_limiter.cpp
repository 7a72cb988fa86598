#include "common/kube/workqueue/rate_limiter.h"

#include <cmath>

namespace vc::kube::workqueue {

ExponentialBackoff::ExponentialBackoff(Duration base, Duration max_delay)
    : base_(base), max_delay_(max_delay) {
  if (base <= Duration::zero() || max_delay < base) {
    throw std::invalid_argument("ItemExponentialRateLimiter: need 0 < base <= max_delay");
  }
}

Duration ExponentialBackoff::delay(int failures) const {
  // Computed in floating point so that large exponents saturate at the cap instead of
  // overflowing the integer tick count.
  const double delay = static_cast<double>(base_.count()) * std::ldexp(1.0, failures);
  if (delay >= static_cast<double>(max_delay_.count())) return max_delay_;
  return Duration(static_cast<Duration::rep>(delay));
}

TokenBucket::TokenBucket(double qps, int burst, std::shared_ptr<Clock> clock)
    : qps_(qps),
      burst_(burst),
      clock_(clock ? std::move(clock) : real_clock()),
      tokens_(burst),
      last_(clock_->now()) {
  if (qps > 0 && burst < 1) throw std::invalid_argument("BucketRateLimiter: burst must be >= 1");
}

Duration TokenBucket::take() {
  if (qps_ <= 0) return Duration::zero();
  std::lock_guard lock(mu_);
  const TimePoint now = clock_->now();
  if (now > last_) {
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    tokens_ = std::min(burst_, tokens_ + elapsed * qps_);
    last_ = now;
  }
  tokens_ -= 1;
  if (tokens_ >= 0) return Duration::zero();
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(-tokens_ / qps_));
}

}  // namespace vc::kube::workqueue
