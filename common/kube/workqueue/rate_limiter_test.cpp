#include "common/kube/workqueue/rate_limiter.h"

#include <gtest/gtest.h>

namespace vc::kube::workqueue {
namespace {

using namespace std::chrono_literals;

TEST(ItemExponentialRateLimiter, BackoffDoublesFromTheBaseAndStopsAtTheCap) {
  ItemExponentialRateLimiter<std::string> l(5ms, 1000s);
  const std::vector<Duration> want{5ms, 10ms, 20ms, 40ms, 80ms, 160ms, 320ms, 640ms, 1280ms};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(l.when("k"), want[i]) << "failure " << i;
  EXPECT_EQ(l.num_requeues("k"), 9);
  // 5ms * 2^18 = 1310.72s is the first step past the cap.
  for (int i = 9; i < 18; ++i) EXPECT_LT(l.when("k"), Duration(1000s)) << "failure " << i;
  EXPECT_EQ(l.when("k"), Duration(1000s));
  for (int i = 0; i < 200; ++i) EXPECT_EQ(l.when("k"), Duration(1000s)) << "no overflow";
}

TEST(ItemExponentialRateLimiter, KeysBackOffIndependently) {
  ItemExponentialRateLimiter<std::string> l(5ms, 1000s);
  EXPECT_EQ(l.when("a"), 5ms);
  EXPECT_EQ(l.when("a"), 10ms);
  EXPECT_EQ(l.when("b"), 5ms);
  EXPECT_EQ(l.num_requeues("a"), 2);
  EXPECT_EQ(l.num_requeues("b"), 1);
}

TEST(ItemExponentialRateLimiter, ForgetResetsTheBackoff) {
  ItemExponentialRateLimiter<std::string> l(5ms, 1000s);
  l.when("k");
  l.when("k");
  l.forget("k");
  EXPECT_EQ(l.num_requeues("k"), 0);
  EXPECT_EQ(l.when("k"), 5ms);
}

TEST(ItemExponentialRateLimiter, RejectsABaseAboveTheCap) {
  EXPECT_THROW(ItemExponentialRateLimiter<std::string>(2s, 1s), std::invalid_argument);
}

TEST(BucketRateLimiter, AllowsTheBurstThenSpacesRetriesAtTheRate) {
  auto clock = std::make_shared<FakeClock>();
  BucketRateLimiter<std::string> l(10, 100, clock);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(l.when("k" + std::to_string(i)), Duration::zero());
  EXPECT_EQ(l.when("x"), Duration(100ms));
  EXPECT_EQ(l.when("y"), Duration(200ms));
  // One second refills ten tokens, which pay off the two-token debt and leave eight.
  clock->step(1s);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(l.when("z"), Duration::zero()) << i;
  EXPECT_EQ(l.when("z"), Duration(100ms));
}

TEST(BucketRateLimiter, RefillStopsAtTheBurst) {
  auto clock = std::make_shared<FakeClock>();
  BucketRateLimiter<std::string> l(10, 2, clock);
  clock->step(1h);
  EXPECT_EQ(l.when("a"), Duration::zero());
  EXPECT_EQ(l.when("b"), Duration::zero());
  EXPECT_EQ(l.when("c"), Duration(100ms));
}

TEST(BucketRateLimiter, ZeroQpsDisablesTheLimit) {
  BucketRateLimiter<std::string> l(0, 0);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(l.when("k"), Duration::zero());
}

TEST(MaxOfRateLimiter, DefaultControllerLimiterTakesTheLongerOfBackoffAndBucket) {
  auto clock = std::make_shared<FakeClock>();
  auto l = default_controller_rate_limiter<std::string>({}, clock);
  // 100 distinct keys fit in the burst: only the per-key 5ms applies.
  for (int i = 0; i < 100; ++i) EXPECT_EQ(l->when("k" + std::to_string(i)), Duration(5ms));
  // The bucket is empty now: 100ms at 10 qps beats the key's first 5ms.
  EXPECT_EQ(l->when("k0"), Duration(100ms));
  EXPECT_EQ(l->num_requeues("k0"), 2);
  l->forget("k0");
  EXPECT_EQ(l->num_requeues("k0"), 0);
}

TEST(MaxOfRateLimiter, PerKeyBackoffWinsOnceItExceedsTheBucket) {
  auto clock = std::make_shared<FakeClock>();
  auto l = default_controller_rate_limiter<std::string>({}, clock);
  Duration last{};
  for (int i = 0; i < 12; ++i) last = l->when("k");
  EXPECT_EQ(last, Duration(5ms * 2048));
}

}  // namespace
}  // namespace vc::kube::workqueue
