#pragma once
// RateLimiter: a token bucket shared by all requests of one Client (--kube-api-qps and
// --kube-api-burst). The bucket starts full with `burst` tokens and refills at `qps` per second;
// each request takes one token, waiting for it when the bucket is empty. qps <= 0 disables it.
//
// Thread-safety: every method may be called from any thread at once. Waiters are served in the
// order they reserved their tokens.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <stop_token>

namespace vc::kube {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  using NowFn = std::function<Clock::time_point()>;

  // now is injectable for tests; by default the steady clock.
  RateLimiter(double qps, int burst, NowFn now = {});

  // Takes a token now, possibly borrowing from the future; returns how long the caller must wait
  // before it may go (zero when a token was available).
  Clock::duration reserve();
  // Returns a token taken by reserve() that will not be used (the caller gave up waiting).
  void cancel_reservation();

  // Blocks until a token is available. Returns false (without using a token) when stop was
  // requested first.
  bool acquire(std::stop_token stop = {});
  // Takes a token only when one is free now; never waits and never borrows from the future.
  // For a caller whose answer is worthless after a wait (an admission review).
  bool try_acquire();

  bool enabled() const { return qps_ > 0; }

 private:
  void refill(Clock::time_point now);  // requires mu_

  const double qps_;
  const double burst_;
  NowFn now_;
  std::mutex mu_;
  double tokens_;             // guarded by mu_; negative while callers wait for reserved tokens
  Clock::time_point last_{};  // guarded by mu_: when tokens_ was last brought up to date
  std::condition_variable_any cv_;  // only for stop wake-ups
};

}  // namespace vc::kube
