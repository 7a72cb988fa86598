#pragma once
// LatencyHistogram: an HDR-style log-linear histogram of durations in nanoseconds. Each power of
// two is split into 128 linear sub-buckets, so any reported value is within 1/128 (< 0.8 %) of
// the recorded one; values below 128 ns are exact and values above ~18 minutes are clamped.
// Recording is one index computation and one increment: no allocation after construction.
//
//   LatencyHistogram h;
//   h.record(std::chrono::nanoseconds(1500));
//   h.percentile(0.99);   // nanoseconds; the highest value equivalent to the rank's bucket
//
// Thread-safety: none. Each client thread owns one; merge() them after the threads joined.

#include <chrono>
#include <cstdint>
#include <vector>

namespace vc::bench {

class LatencyHistogram {
 public:
  LatencyHistogram();

  void record(std::chrono::nanoseconds value);
  // Adds every recording of other to this one.
  void merge(const LatencyHistogram& other);
  void reset();

  std::uint64_t count() const { return count_; }
  // The value at quantile q (0 < q <= 1): the smallest bucket whose cumulative count reaches
  // ceil(q * count), reported as that bucket's highest value, but never above max(). 0 when
  // empty. Throws std::invalid_argument for q outside (0, 1].
  std::chrono::nanoseconds percentile(double q) const;
  std::chrono::nanoseconds min() const;  // exact; 0 when empty
  std::chrono::nanoseconds max() const;  // exact; 0 when empty
  std::chrono::nanoseconds mean() const;

  // Bucket geometry, exposed for tests.
  static std::size_t bucket_index(std::uint64_t ns);
  static std::uint64_t bucket_lowest(std::size_t index);
  static std::uint64_t bucket_highest(std::size_t index);

 private:
  std::vector<std::uint64_t> buckets_;
  std::uint64_t count_ = 0;
  std::uint64_t min_ = 0;
  std::uint64_t max_ = 0;
  long double sum_ = 0;  // ns; long double keeps hours of nanoseconds exact enough for a mean
};

}  // namespace vc::bench
