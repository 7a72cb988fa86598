#include "common/kube/cache/backoff.h"

#include <algorithm>

namespace vc::kube::cache {

Backoff::Backoff(BackoffOptions options)
    : options_(options), current_(options.initial), rng_(random::SmallRng::from_entropy()) {}

std::chrono::milliseconds Backoff::next() {
  const auto base = std::min(current_, options_.max);
  const double grown = static_cast<double>(current_.count()) * options_.factor;
  current_ = std::chrono::milliseconds(
      static_cast<int64_t>(std::min(grown, static_cast<double>(options_.max.count()))));
  double extra = 0;
  if (options_.jitter > 0) {
    extra = std::uniform_real_distribution<double>(0, options_.jitter)(rng_) *
            static_cast<double>(base.count());
  }
  return base + std::chrono::milliseconds(static_cast<int64_t>(extra));
}

void Backoff::reset() {
  current_ = options_.initial;
}

}  // namespace vc::kube::cache
