#include "bench/webhook/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

namespace vc::bench {
namespace {

constexpr unsigned kSubBits = 7;  // 128 sub-buckets per power of two
constexpr std::uint64_t kSubCount = std::uint64_t{1} << kSubBits;
constexpr unsigned kMaxBits = 40;  // 2^40 ns is about 18 minutes; larger values are clamped
constexpr std::uint64_t kMaxValue = (std::uint64_t{1} << kMaxBits) - 1;
constexpr std::size_t kBucketCount = kSubCount + (kMaxBits - kSubBits) * kSubCount;

}  // namespace

LatencyHistogram::LatencyHistogram() : buckets_(kBucketCount, 0) {}

std::size_t LatencyHistogram::bucket_index(std::uint64_t ns) {
  ns = std::min(ns, kMaxValue);
  if (ns < kSubCount) return static_cast<std::size_t>(ns);
  const unsigned magnitude = static_cast<unsigned>(std::bit_width(ns)) - 1;  // >= kSubBits
  const unsigned shift = magnitude - kSubBits;
  const std::uint64_t sub = (ns >> shift) - kSubCount;
  return static_cast<std::size_t>(kSubCount + shift * kSubCount + sub);
}

std::uint64_t LatencyHistogram::bucket_lowest(std::size_t index) {
  if (index < kSubCount) return index;
  const std::uint64_t shift = (index - kSubCount) / kSubCount;
  const std::uint64_t sub = (index - kSubCount) % kSubCount;
  return (kSubCount + sub) << shift;
}

std::uint64_t LatencyHistogram::bucket_highest(std::size_t index) {
  if (index < kSubCount) return index;
  const std::uint64_t shift = (index - kSubCount) / kSubCount;
  return bucket_lowest(index) + (std::uint64_t{1} << shift) - 1;
}

void LatencyHistogram::record(std::chrono::nanoseconds value) {
  const std::uint64_t ns = value.count() < 0 ? 0 : static_cast<std::uint64_t>(value.count());
  ++buckets_[bucket_index(ns)];
  if (count_ == 0 || ns < min_) min_ = ns;
  max_ = std::max(max_, ns);
  ++count_;
  sum_ += static_cast<long double>(ns);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  for (std::size_t i = 0; i < buckets_.size(); ++i) buckets_[i] += other.buckets_[i];
  min_ = count_ == 0 ? other.min_ : std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  count_ += other.count_;
  sum_ += other.sum_;
}

void LatencyHistogram::reset() {
  std::fill(buckets_.begin(), buckets_.end(), 0);
  count_ = min_ = max_ = 0;
  sum_ = 0;
}

std::chrono::nanoseconds LatencyHistogram::percentile(double q) const {
  if (!(q > 0.0 && q <= 1.0)) throw std::invalid_argument("percentile: q must be in (0, 1]");
  if (count_ == 0) return std::chrono::nanoseconds(0);
  const auto rank = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_))));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < buckets_.size(); ++i) {
    seen += buckets_[i];
    if (seen >= rank) {
      const std::uint64_t v = std::clamp(bucket_highest(i), min_, max_);
      return std::chrono::nanoseconds(static_cast<std::int64_t>(v));
    }
  }
  return max();  // unreachable while count_ equals the sum of the buckets
}

std::chrono::nanoseconds LatencyHistogram::min() const {
  return std::chrono::nanoseconds(static_cast<std::int64_t>(min_));
}

std::chrono::nanoseconds LatencyHistogram::max() const {
  return std::chrono::nanoseconds(static_cast<std::int64_t>(max_));
}

std::chrono::nanoseconds LatencyHistogram::mean() const {
  if (count_ == 0) return std::chrono::nanoseconds(0);
  return std::chrono::nanoseconds(
      static_cast<std::int64_t>(std::llround(static_cast<double>(sum_ / count_))));
}

}  // namespace vc::bench
