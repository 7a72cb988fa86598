#pragma once
// Rate limiters decide how long a failed key waits before its retry. The controller default
// combines a per-key exponential backoff (5 ms doubling to 1000 s) with an overall token bucket
// (10 qps, burst 100) and waits for the longer of the two, so one hot failing key backs off on
// its own and a storm of failures cannot exceed the bucket's rate.
//
// Limiters are templates on the queue's key type (see queue.h); the arithmetic that does not
// depend on it (ExponentialBackoff, TokenBucket) is compiled once in rate_limiter.cpp.
//
// Thread-safety: every method may be called from any thread.

#include <algorithm>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/kube/workqueue/clock.h"

namespace vc::kube::workqueue {

template <class Key, class Hash = std::hash<Key>>
class RateLimiter {
 public:
  virtual ~RateLimiter() = default;
  // Records one more failure of key and returns how long to wait before retrying it.
  virtual Duration when(const Key& key) = 0;
  // Clears the failure history of key (after a success).
  virtual void forget(const Key& key) = 0;
  // Failures recorded for key since the last forget.
  virtual int num_requeues(const Key& key) const = 0;
};

// base * 2^failures, capped at max_delay; throws std::invalid_argument unless
// 0 < base <= max_delay.
class ExponentialBackoff {
 public:
  ExponentialBackoff(Duration base, Duration max_delay);
  Duration delay(int failures) const;

 private:
  Duration base_;
  Duration max_delay_;
};

// A token bucket: refills at qps tokens per second up to burst. take() takes a token and returns
// zero, or, without one, how long until its token will have been refilled (the bucket may go into
// debt, so the reserved delays grow with the backlog). qps <= 0 disables the limit.
class TokenBucket {
 public:
  TokenBucket(double qps, int burst, std::shared_ptr<Clock> clock);
  Duration take();

 private:
  const double qps_;
  const double burst_;
  const std::shared_ptr<Clock> clock_;
  std::mutex mu_;
  double tokens_;  // may be negative: tokens promised to callers still waiting
  TimePoint last_;
};

// base * 2^failures of each key, capped at max_delay.
template <class Key, class Hash = std::hash<Key>>
class ItemExponentialRateLimiter : public RateLimiter<Key, Hash> {
 public:
  ItemExponentialRateLimiter(Duration base, Duration max_delay) : backoff_(base, max_delay) {}
  Duration when(const Key& key) override {
    int failures;
    {
      std::lock_guard lock(mu_);
      failures = failures_[key]++;
    }
    return backoff_.delay(failures);
  }
  void forget(const Key& key) override {
    std::lock_guard lock(mu_);
    failures_.erase(key);
  }
  int num_requeues(const Key& key) const override {
    std::lock_guard lock(mu_);
    auto it = failures_.find(key);
    return it == failures_.end() ? 0 : it->second;
  }

 private:
  const ExponentialBackoff backoff_;
  mutable std::mutex mu_;
  std::unordered_map<Key, int, Hash> failures_;  // keys with at least one failure
};

// A TokenBucket over all keys.
template <class Key, class Hash = std::hash<Key>>
class BucketRateLimiter : public RateLimiter<Key, Hash> {
 public:
  BucketRateLimiter(double qps, int burst, std::shared_ptr<Clock> clock = nullptr)
      : bucket_(qps, burst, std::move(clock)) {}
  Duration when(const Key&) override { return bucket_.take(); }
  void forget(const Key&) override {}
  int num_requeues(const Key&) const override { return 0; }

 private:
  TokenBucket bucket_;
};

// The longest delay of its parts; forget and num_requeues apply to all of them.
template <class Key, class Hash = std::hash<Key>>
class MaxOfRateLimiter : public RateLimiter<Key, Hash> {
 public:
  explicit MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter<Key, Hash>>> limiters)
      : limiters_(std::move(limiters)) {
    if (limiters_.empty()) throw std::invalid_argument("MaxOfRateLimiter: no limiters");
  }
  Duration when(const Key& key) override {
    Duration longest = Duration::zero();
    // Every limiter must see the failure, so no short-circuit.
    for (const auto& l : limiters_) longest = std::max(longest, l->when(key));
    return longest;
  }
  void forget(const Key& key) override {
    for (const auto& l : limiters_) l->forget(key);
  }
  int num_requeues(const Key& key) const override {
    int most = 0;
    for (const auto& l : limiters_) most = std::max(most, l->num_requeues(key));
    return most;
  }

 private:
  const std::vector<std::unique_ptr<RateLimiter<Key, Hash>>> limiters_;
};

struct ControllerRateLimiterOptions {
  Duration base_delay = std::chrono::milliseconds(5);
  Duration max_delay = std::chrono::seconds(1000);
  double qps = 10;
  int burst = 100;
};

// MaxOf(ItemExponential(base, max), Bucket(qps, burst)).
template <class Key, class Hash = std::hash<Key>>
std::unique_ptr<RateLimiter<Key, Hash>> default_controller_rate_limiter(
    ControllerRateLimiterOptions options = {}, std::shared_ptr<Clock> clock = nullptr) {
  std::vector<std::unique_ptr<RateLimiter<Key, Hash>>> parts;
  parts.push_back(std::make_unique<ItemExponentialRateLimiter<Key, Hash>>(options.base_delay,
                                                                          options.max_delay));
  parts.push_back(
      std::make_unique<BucketRateLimiter<Key, Hash>>(options.qps, options.burst, std::move(clock)));
  return std::make_unique<MaxOfRateLimiter<Key, Hash>>(std::move(parts));
}

}  // namespace vc::kube::workqueue
