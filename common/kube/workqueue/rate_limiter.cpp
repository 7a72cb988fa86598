#include "common/kube/workqueue/rate_limiter.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vc::kube::workqueue {

ItemExponentialRateLimiter::ItemExponentialRateLimiter(Duration base, Duration max_delay)
    : base_(base), max_delay_(max_delay) {
  if (base <= Duration::zero() || max_delay < base) {
    throw std::invalid_argument("ItemExponentialRateLimiter: need 0 < base <= max_delay");
  }
}

Duration ItemExponentialRateLimiter::when(const std::string& key) {
  int exponent;
  {
    std::lock_guard lock(mu_);
    exponent = failures_[key]++;
  }
  // Computed in floating point so that large exponents saturate at the cap instead of
  // overflowing the integer tick count.
  const double delay = static_cast<double>(base_.count()) * std::ldexp(1.0, exponent);
  if (delay >= static_cast<double>(max_delay_.count())) return max_delay_;
  return Duration(static_cast<Duration::rep>(delay));
}

void ItemExponentialRateLimiter::forget(const std::string& key) {
  std::lock_guard lock(mu_);
  failures_.erase(key);
}

int ItemExponentialRateLimiter::num_requeues(const std::string& key) const {
  std::lock_guard lock(mu_);
  auto it = failures_.find(key);
  return it == failures_.end() ? 0 : it->second;
}

BucketRateLimiter::BucketRateLimiter(double qps, int burst, std::shared_ptr<Clock> clock)
    : qps_(qps),
      burst_(burst),
      clock_(clock ? std::move(clock) : real_clock()),
      tokens_(burst),
      last_(clock_->now()) {
  if (qps > 0 && burst < 1) throw std::invalid_argument("BucketRateLimiter: burst must be >= 1");
}

Duration BucketRateLimiter::when(const std::string&) {
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

MaxOfRateLimiter::MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters)
    : limiters_(std::move(limiters)) {
  if (limiters_.empty()) throw std::invalid_argument("MaxOfRateLimiter: no limiters");
}

Duration MaxOfRateLimiter::when(const std::string& key) {
  Duration longest = Duration::zero();
  // Every limiter must see the failure, so no short-circuit.
  for (const auto& l : limiters_) longest = std::max(longest, l->when(key));
  return longest;
}

void MaxOfRateLimiter::forget(const std::string& key) {
  for (const auto& l : limiters_) l->forget(key);
}

int MaxOfRateLimiter::num_requeues(const std::string& key) const {
  int most = 0;
  for (const auto& l : limiters_) most = std::max(most, l->num_requeues(key));
  return most;
}

std::unique_ptr<RateLimiter> default_controller_rate_limiter(ControllerRateLimiterOptions options,
                                                             std::shared_ptr<Clock> clock) {
  std::vector<std::unique_ptr<RateLimiter>> parts;
  parts.push_back(
      std::make_unique<ItemExponentialRateLimiter>(options.base_delay, options.max_delay));
  parts.push_back(
      std::make_unique<BucketRateLimiter>(options.qps, options.burst, std::move(clock)));
  return std::make_unique<MaxOfRateLimiter>(std::move(parts));
}

}  // namespace vc::kube::workqueue
