#include "common/random/random.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <thread>

namespace vc::random {
namespace {

TEST(SmallRng, TheSameSeedGivesTheSameSequence) {
  SmallRng a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) {
    const auto x = a();
    EXPECT_EQ(x, b());
    EXPECT_NE(x, c());
  }
}

TEST(SmallRng, ADistributionCoversItsWholeRangeEvenly) {
  SmallRng rng(7);
  std::uniform_int_distribution<int> die(0, 35);
  std::vector<int> counts(36);
  for (int i = 0; i < 36000; ++i) ++counts[static_cast<std::size_t>(die(rng))];
  for (std::size_t face = 0; face < counts.size(); ++face) {
    EXPECT_GT(counts[face], 800) << "face " << face;
    EXPECT_LT(counts[face], 1200) << "face " << face;
  }
}

TEST(ThreadRng, ThreadsDrawDifferentSequences) {
  std::uint64_t here = thread_rng()();
  std::uint64_t there = 0;
  std::thread([&] { there = thread_rng()(); }).join();
  EXPECT_NE(here, there);
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(thread_rng()());
  EXPECT_EQ(seen.size(), 1000u);
}

}  // namespace
}  // namespace vc::random
