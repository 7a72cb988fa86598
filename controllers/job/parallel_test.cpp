#include "controllers/job/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace vc::controllers::job {
namespace {

TEST(ParallelForTest, CallsEveryIndexOnce) {
  ParallelPool pool(7);
  std::vector<std::atomic<int>> hits(100);
  pool.parallel_for(hits.size(), 8, [&](std::size_t i) { hits[i]++; });
  for (std::size_t i = 0; i < hits.size(); ++i) EXPECT_EQ(hits[i].load(), 1) << i;
}

TEST(ParallelForTest, NeverExceedsTheWidth) {
  std::atomic<int> running{0};
  std::atomic<int> peak{0};
  ParallelPool pool(15);
  pool.parallel_for(40, 4, [&](std::size_t) {
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
  ParallelPool pool(3);
  int calls = 0;
  pool.parallel_for(0, 4, [&](std::size_t) { ++calls; });
  pool.parallel_for(3, 0, [&](std::size_t) { ++calls; });
  EXPECT_EQ(calls, 3);
  ParallelPool inline_only(0);
  inline_only.parallel_for(5, 8, [&](std::size_t) { ++calls; });
  EXPECT_EQ(calls, 8);
}

// Several workers share one pool: every call still sees each of its indices exactly once and
// returns only when all of them ran, even when the helpers are busy with other callers.
TEST(ParallelForTest, ConcurrentCallersShareTheHelpers) {
  ParallelPool pool(3);
  std::vector<std::thread> callers;
  std::atomic<int> failures{0};
  for (int c = 0; c < 6; ++c) {
    callers.emplace_back([&] {
      for (int round = 0; round < 50; ++round) {
        std::vector<std::atomic<int>> hits(1 + round % 9);
        pool.parallel_for(hits.size(), 4, [&](std::size_t i) { hits[i]++; });
        for (auto& h : hits) {
          if (h.load() != 1) failures++;
        }
      }
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace vc::controllers::job
