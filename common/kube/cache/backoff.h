#pragma once
// Backoff: the growing, jittered delay between a reflector's failed attempts (800 ms doubling to
// 30 s by default). Jitter spreads the retries of many informers, and of many replicas, after an
// API server restart; a reset after a healthy period keeps an old failure from slowing the
// reaction to a new one.
//
// Thread-safety: none; one reflector thread owns its Backoff.

#include <chrono>
#include <random>

#include "common/random/random.h"

namespace vc::kube::cache {

struct BackoffOptions {
  std::chrono::milliseconds initial{800};
  std::chrono::milliseconds max{30000};
  double factor = 2.0;
  // Each delay is lengthened by a random fraction in [0, jitter) of itself.
  double jitter = 0.5;
};

class Backoff {
 public:
  explicit Backoff(BackoffOptions options);
  // The delay to wait now; the next call returns a longer one, up to max (before jitter).
  std::chrono::milliseconds next();
  void reset();

 private:
  const BackoffOptions options_;
  std::chrono::milliseconds current_;
  random::SmallRng rng_;
};

}  // namespace vc::kube::cache
