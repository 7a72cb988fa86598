#include "controllers/job/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace vc::controllers::job {
namespace {

TEST(ParallelForTest, CallsEveryIndexOnce) {
  std::vector<std::atomic<int>> hits(100);
  parallel_for(hits.size(), 8, [&](std::size_t i) { hits[i]++; });
  for (std::size_t i = 0; i < hits.size(); ++i) EXPECT_EQ(hits[i].load(), 1) << i;
}

TEST(ParallelForTest, NeverExceedsTheWidth) {
  std::atomic<int> running{0};
  std::atomic<int> peak{0};
  parallel_for(40, 4, [&](std::size_t) {
    int now = ++running;
    int seen = peak.load();
    while (now > seen && !peak.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    --running;
  });
  EXPECT_LE(peak.load(), 4);
  EXPECT_GE(peak.load(), 1);
}

TEST(ParallelForTest, ZeroItemsAndWidthZeroAreFine) {
  int calls = 0;
  parallel_for(0, 4, [&](std::size_t) { ++calls; });
  parallel_for(3, 0, [&](std::size_t) { ++calls; });
  EXPECT_EQ(calls, 3);
}

}  // namespace
}  // namespace vc::controllers::job
