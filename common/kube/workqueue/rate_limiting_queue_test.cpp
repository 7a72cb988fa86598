#include "common/kube/workqueue/rate_limiting_queue.h"

#include <gtest/gtest.h>

namespace vc::kube::workqueue {
namespace {

using namespace std::chrono_literals;

// g++ 12 warns on designated initializers that skip members, so options are built here.
QueueOptions on_clock(std::shared_ptr<Clock> clock, std::string name = {}) {
  QueueOptions o;
  o.name = std::move(name);
  o.clock = std::move(clock);
  return o;
}

std::unique_ptr<RateLimiter<std::string>> exponential() {
  return std::make_unique<ItemExponentialRateLimiter<std::string>>(5ms, 1000s);
}

TEST(RateLimitingQueue, FailedKeyReturnsAfterItsBackoff) {
  auto clock = std::make_shared<FakeClock>();
  RateLimitingQueue<std::string> q(on_clock(clock), exponential());
  q.add_rate_limited("k");
  q.add_rate_limited("marker");
  EXPECT_EQ(q.len(), 0u);
  EXPECT_EQ(q.waiting(), 2u);
  clock->step(5ms);
  EXPECT_EQ(q.get(), "k");
  q.done("k");
  EXPECT_EQ(q.get(), "marker");
  q.done("marker");

  // Second failure: 10ms. A 5ms key added now and released first proves "k" was still waiting.
  q.add_rate_limited("k");
  q.add_after("probe", 5ms);
  clock->step(5ms);
  EXPECT_EQ(q.get(), "probe");
  EXPECT_EQ(q.len(), 0u);
  clock->step(5ms);
  EXPECT_EQ(q.get(), "k");
  EXPECT_EQ(q.num_requeues("k"), 2);
}

TEST(RateLimitingQueue, ForgetResetsRequeuesAndBackoff) {
  auto clock = std::make_shared<FakeClock>();
  RateLimitingQueue<std::string> q(on_clock(clock), exponential());
  q.add_rate_limited("k");
  q.add_rate_limited("k");
  EXPECT_EQ(q.num_requeues("k"), 2);
  q.forget("k");
  EXPECT_EQ(q.num_requeues("k"), 0);
  // The key is still parked (at the earlier 5ms due); after forget the next failure is 5ms again.
  clock->step(5ms);
  ASSERT_EQ(q.get(), "k");
  q.done("k");
  q.add_rate_limited("k");
  clock->step(5ms);
  EXPECT_EQ(q.get(), "k");
}

TEST(RateLimitingQueue, DefaultLimiterUsesTheQueueClock) {
  auto clock = std::make_shared<FakeClock>();
  RateLimitingQueue<std::string> q(on_clock(clock));
  q.add_rate_limited("k");
  clock->step(5ms);
  EXPECT_EQ(q.get(), "k");
}

TEST(RateLimitingQueue, AddRateLimitedAfterShutdownRecordsNothing) {
  RateLimitingQueue<std::string> q({}, exponential());
  q.shutdown();
  q.add_rate_limited("k");
  EXPECT_EQ(q.num_requeues("k"), 0);
  EXPECT_EQ(q.waiting(), 0u);
}

}  // namespace
}  // namespace vc::kube::workqueue
