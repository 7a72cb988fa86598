#include "bench/webhook/latency_histogram.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace vc::bench {
namespace {

using std::chrono::microseconds;
using std::chrono::nanoseconds;

TEST(LatencyHistogram, EmptyHistogramReportsZeros) {
  LatencyHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.percentile(0.5), nanoseconds(0));
  EXPECT_EQ(h.max(), nanoseconds(0));
  EXPECT_EQ(h.min(), nanoseconds(0));
  EXPECT_EQ(h.mean(), nanoseconds(0));
}

TEST(LatencyHistogram, SmallValuesAreExact) {
  LatencyHistogram h;
  for (int v = 1; v <= 100; ++v) h.record(nanoseconds(v));
  EXPECT_EQ(h.percentile(0.5), nanoseconds(50));
  EXPECT_EQ(h.percentile(0.99), nanoseconds(99));
  EXPECT_EQ(h.percentile(1.0), nanoseconds(100));
  EXPECT_EQ(h.min(), nanoseconds(1));
}

TEST(LatencyHistogram, PercentilesOfAUniformSpreadAreWithinOnePercent) {
  LatencyHistogram h;
  for (int us = 1; us <= 10'000; ++us) h.record(microseconds(us));
  const auto near = [](nanoseconds got, double want_us) {
    const double got_us = static_cast<double>(got.count()) / 1000.0;
    EXPECT_NEAR(got_us, want_us, want_us * 0.01) << "want " << want_us << " us";
  };
  near(h.percentile(0.50), 5'000);
  near(h.percentile(0.90), 9'000);
  near(h.percentile(0.99), 9'900);
  EXPECT_EQ(h.max(), microseconds(10'000));
  EXPECT_EQ(h.mean(), nanoseconds(5'000'500));
}

TEST(LatencyHistogram, PercentileNeverExceedsTheRecordedMaximum) {
  LatencyHistogram h;
  h.record(nanoseconds(1'000'001));  // inside a bucket whose upper edge is higher
  EXPECT_EQ(h.percentile(1.0), nanoseconds(1'000'001));
  EXPECT_EQ(h.percentile(0.5), nanoseconds(1'000'001));
}

TEST(LatencyHistogram, ATailOfOnePercentShowsAtP99ButNotAtP98) {
  LatencyHistogram h;
  for (int i = 0; i < 990; ++i) h.record(microseconds(100));
  for (int i = 0; i < 10; ++i) h.record(microseconds(5'000));
  EXPECT_LT(h.percentile(0.98), microseconds(102));
  EXPECT_LT(h.percentile(0.99), microseconds(102));  // rank 990 is still the fast group
  EXPECT_GT(h.percentile(0.995), microseconds(4'900));
}

TEST(LatencyHistogram, MergeAddsCountsAndKeepsExtremes) {
  LatencyHistogram a, b;
  a.record(microseconds(10));
  a.record(microseconds(20));
  b.record(microseconds(5));
  b.record(microseconds(900));
  a.merge(b);
  EXPECT_EQ(a.count(), 4u);
  EXPECT_EQ(a.min(), microseconds(5));
  EXPECT_EQ(a.max(), microseconds(900));
  LatencyHistogram empty;
  a.merge(empty);
  EXPECT_EQ(a.count(), 4u);
  EXPECT_EQ(a.min(), microseconds(5));
}

TEST(LatencyHistogram, ResetForgetsEverything) {
  LatencyHistogram h;
  h.record(microseconds(3));
  h.reset();
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.percentile(0.5), nanoseconds(0));
}

TEST(LatencyHistogram, BucketsTileTheRangeWithoutGapsAndWithBoundedWidth) {
  for (std::size_t i = 0; i + 1 < 2000; ++i) {
    ASSERT_EQ(LatencyHistogram::bucket_highest(i) + 1, LatencyHistogram::bucket_lowest(i + 1))
        << "bucket " << i;
    const auto lo = LatencyHistogram::bucket_lowest(i);
    const auto width = LatencyHistogram::bucket_highest(i) - lo + 1;
    ASSERT_LE(width * 128, std::max<std::uint64_t>(lo, 128)) << "bucket " << i;
    ASSERT_EQ(LatencyHistogram::bucket_index(lo), i);
    ASSERT_EQ(LatencyHistogram::bucket_index(LatencyHistogram::bucket_highest(i)), i);
  }
}

TEST(LatencyHistogram, HugeAndNegativeValuesAreClampedNotLost) {
  LatencyHistogram h;
  h.record(std::chrono::hours(24));
  h.record(nanoseconds(-5));
  EXPECT_EQ(h.count(), 2u);
  EXPECT_EQ(h.min(), nanoseconds(0));
  EXPECT_EQ(h.max(), std::chrono::hours(24));
}

TEST(LatencyHistogram, QuantileOutsideTheUnitIntervalIsAProgrammerError) {
  LatencyHistogram h;
  EXPECT_THROW(h.percentile(0.0), std::invalid_argument);
  EXPECT_THROW(h.percentile(1.5), std::invalid_argument);
}

}  // namespace
}  // namespace vc::bench
