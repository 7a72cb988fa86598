#pragma once
// Rate limiters decide how long a failed key waits before its retry. The controller default
// combines a per-key exponential backoff (5 ms doubling to 1000 s) with an overall token bucket
// (10 qps, burst 100) and waits for the longer of the two, so one hot failing key backs off on
// its own and a storm of failures cannot exceed the bucket's rate.
//
// Thread-safety: every method may be called from any thread.

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/kube/workqueue/clock.h"

namespace vc::kube::workqueue {

class RateLimiter {
 public:
  virtual ~RateLimiter() = default;
  // Records one more failure of key and returns how long to wait before retrying it.
  virtual Duration when(const std::string& key) = 0;
  // Clears the failure history of key (after a success).
  virtual void forget(const std::string& key) = 0;
  // Failures recorded for key since the last forget.
  virtual int num_requeues(const std::string& key) const = 0;
};

// base * 2^failures, capped at max_delay.
class ItemExponentialRateLimiter : public RateLimiter {
 public:
  ItemExponentialRateLimiter(Duration base, Duration max_delay);
  Duration when(const std::string& key) override;
  void forget(const std::string& key) override;
  int num_requeues(const std::string& key) const override;

 private:
  const Duration base_;
  const Duration max_delay_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, int> failures_;  // keys with at least one failure
};

// A token bucket over all keys: refills at qps tokens per second up to burst. Each when() takes
// a token; without one, the key waits until its token will have been refilled (the bucket may go
// into debt, so the reserved delays grow with the backlog). qps <= 0 disables the limit.
class BucketRateLimiter : public RateLimiter {
 public:
  BucketRateLimiter(double qps, int burst, std::shared_ptr<Clock> clock = nullptr);
  Duration when(const std::string& key) override;
  void forget(const std::string&) override {}
  int num_requeues(const std::string&) const override { return 0; }

 private:
  const double qps_;
  const double burst_;
  const std::shared_ptr<Clock> clock_;
  std::mutex mu_;
  double tokens_;  // may be negative: tokens promised to callers still waiting
  TimePoint last_;
};

// The longest delay of its parts; forget and num_requeues apply to all of them.
class MaxOfRateLimiter : public RateLimiter {
 public:
  explicit MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters);
  Duration when(const std::string& key) override;
  void forget(const std::string& key) override;
  int num_requeues(const std::string& key) const override;

 private:
  const std::vector<std::unique_ptr<RateLimiter>> limiters_;
};

struct ControllerRateLimiterOptions {
  Duration base_delay = std::chrono::milliseconds(5);
  Duration max_delay = std::chrono::seconds(1000);
  double qps = 10;
  int burst = 100;
};

// MaxOf(ItemExponential(base, max), Bucket(qps, burst)).
std::unique_ptr<RateLimiter> default_controller_rate_limiter(
    ControllerRateLimiterOptions options = {}, std::shared_ptr<Clock> clock = nullptr);

}  // namespace vc::kube::workqueue
