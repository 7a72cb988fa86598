#include "common/kube/cache/backoff.h"

#include <gtest/gtest.h>

namespace vc::kube::cache {
namespace {

using namespace std::chrono_literals;

TEST(Backoff, DoublesFromTheInitialDelayUpToTheMaximum) {
  Backoff b({.initial = 800ms, .max = 30s, .factor = 2, .jitter = 0});
  const std::vector<std::chrono::milliseconds> want{800ms,   1600ms,  3200ms, 6400ms,
                                                    12800ms, 25600ms, 30s,    30s};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(b.next(), want[i]) << "attempt " << i;
}

TEST(Backoff, JitterOnlyLengthensWithinItsFraction) {
  Backoff b({.initial = 1000ms, .max = 1000ms, .factor = 2, .jitter = 0.5});
  bool varied = false;
  std::chrono::milliseconds first = b.next();
  for (int i = 0; i < 200; ++i) {
    const auto d = b.next();
    EXPECT_GE(d, 1000ms);
    EXPECT_LT(d, 1500ms);
    varied |= d != first;
  }
  EXPECT_TRUE(varied) << "200 jittered delays were all equal";
}

TEST(Backoff, ResetStartsAgainFromTheInitialDelay) {
  Backoff b({.initial = 10ms, .max = 1s, .factor = 2, .jitter = 0});
  b.next();
  b.next();
  b.reset();
  EXPECT_EQ(b.next(), 10ms);
}

}  // namespace
}  // namespace vc::kube::cache
