#include <gtest/gtest.h>

#include <thread>

#include "common/kube/rate_limiter.h"

namespace vc::kube {
namespace {

using namespace std::chrono_literals;
using Clock = RateLimiter::Clock;

struct FakeClock {
  Clock::time_point now = Clock::time_point() + 1h;
  RateLimiter::NowFn fn() {
    return [this] { return now; };
  }
};

TEST(RateLimiter, BurstIsImmediateThenRequestsArePacedAtQps) {
  FakeClock clock;
  RateLimiter limiter(10, 3, clock.fn());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(limiter.reserve(), Clock::duration::zero()) << i;
  // The bucket is empty: the 4th waits one interval, the 5th two.
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::milliseconds>(limiter.reserve()), 100ms);
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::milliseconds>(limiter.reserve()), 200ms);
}

TEST(RateLimiter, RefillsOverTimeUpToBurst) {
  FakeClock clock;
  RateLimiter limiter(10, 2, clock.fn());
  EXPECT_EQ(limiter.reserve(), Clock::duration::zero());
  EXPECT_EQ(limiter.reserve(), Clock::duration::zero());
  clock.now += 100ms;  // one token back
  EXPECT_EQ(limiter.reserve(), Clock::duration::zero());
  EXPECT_GT(limiter.reserve(), Clock::duration::zero());
  clock.now += 1h;  // refill never exceeds the burst
  EXPECT_EQ(limiter.reserve(), Clock::duration::zero());
  EXPECT_EQ(limiter.reserve(), Clock::duration::zero());
  EXPECT_GT(limiter.reserve(), Clock::duration::zero());
}

TEST(RateLimiter, CancelledReservationReturnsTheToken) {
  FakeClock clock;
  RateLimiter limiter(1, 1, clock.fn());
  EXPECT_EQ(limiter.reserve(), Clock::duration::zero());
  EXPECT_GT(limiter.reserve(), Clock::duration::zero());
  limiter.cancel_reservation();
  clock.now += 1s;
  EXPECT_EQ(limiter.reserve(), Clock::duration::zero());
}

TEST(RateLimiter, TryAcquireTakesOnlyAFreeTokenAndNeverWaits) {
  FakeClock clock;
  RateLimiter limiter(10, 2, clock.fn());
  EXPECT_TRUE(limiter.try_acquire());
  EXPECT_TRUE(limiter.try_acquire());
  EXPECT_FALSE(limiter.try_acquire());  // empty: no borrowing from the future
  clock.now += 50ms;                    // half a token is not a token
  EXPECT_FALSE(limiter.try_acquire());
  clock.now += 50ms;
  EXPECT_TRUE(limiter.try_acquire());
  // A failed try takes nothing: the next token is one interval away, not two.
  EXPECT_FALSE(limiter.try_acquire());
  clock.now += 100ms;
  EXPECT_EQ(limiter.reserve(), Clock::duration::zero());
}

TEST(RateLimiter, TryAcquireDoesNotJumpAheadOfAWaiter) {
  FakeClock clock;
  RateLimiter limiter(10, 1, clock.fn());
  EXPECT_EQ(limiter.reserve(), Clock::duration::zero());
  EXPECT_GT(limiter.reserve(), Clock::duration::zero());  // a waiter owns the next token
  clock.now += 100ms;
  EXPECT_FALSE(limiter.try_acquire());
  EXPECT_TRUE(RateLimiter(0, 1).try_acquire());  // disabled: always free
}

TEST(RateLimiter, ZeroQpsDisablesLimiting) {
  RateLimiter limiter(0, 1);
  EXPECT_FALSE(limiter.enabled());
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(limiter.acquire());
}

TEST(RateLimiter, AcquireWaitsForTheNextToken) {
  RateLimiter limiter(20, 1);  // 50 ms per token
  ASSERT_TRUE(limiter.acquire());
  const auto start = Clock::now();
  ASSERT_TRUE(limiter.acquire());
  ASSERT_TRUE(limiter.acquire());
  const auto elapsed = Clock::now() - start;
  EXPECT_GE(elapsed, 90ms);
  EXPECT_LT(elapsed, 2s);
}

TEST(RateLimiter, AcquireReturnsFalsePromptlyWhenStopped) {
  RateLimiter limiter(0.1, 1);  // the next token is 10 s away
  ASSERT_TRUE(limiter.acquire());
  std::stop_source stop;
  std::thread stopper([&] {
    std::this_thread::sleep_for(50ms);
    stop.request_stop();
  });
  const auto start = Clock::now();
  EXPECT_FALSE(limiter.acquire(stop.get_token()));
  EXPECT_LT(Clock::now() - start, 2s);
  stopper.join();
  EXPECT_FALSE(limiter.acquire(stop.get_token()));
}

}  // namespace
}  // namespace vc::kube
