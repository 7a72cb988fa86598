// Outcomes of Regexp::compile beyond the golden pairs (golden_test.cpp checks matches against Go).
#include "common/go/regexp_match.h"

#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace vc::go {
namespace {

TEST(Regexp, GoRefusedPatternCarriesGosErrorAndMatchesNothing) {
  const Regexp re = Regexp::compile("a(b");
  EXPECT_EQ(re.status(), Regexp::Status::go_refuses);
  EXPECT_EQ(re.error(), "error parsing regexp: missing closing ): `a(b`");
  EXPECT_FALSE(re.match_string("ab"));
}

TEST(Regexp, PatternGoAcceptsButRe2DoesNotIsUnsupportedNotAGuess) {
  const Regexp re = Regexp::compile("(?<n>a)");
  EXPECT_EQ(re.status(), Regexp::Status::unsupported);
  EXPECT_FALSE(re.error().empty());
  EXPECT_FALSE(re.match_string("a"));
}

TEST(Regexp, HostilePatternRunsInLinearTime) {
  // Exponential for a backtracking engine; RE2 answers at once.
  const Regexp re = Regexp::compile("^(a+)+$");
  ASSERT_EQ(re.status(), Regexp::Status::ok);
  EXPECT_FALSE(re.match_string(std::string(5000, 'a') + "!"));
  EXPECT_TRUE(re.match_string(std::string(5000, 'a')));
}

TEST(Regexp, CopiesShareOneCompiledProgramAcrossThreads) {
  const Regexp re = Regexp::compile("^node-[0-9]+$");
  std::vector<std::thread> threads;
  std::vector<int> hits(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([copy = re, &hits, t] {
      for (int i = 0; i < 1000; ++i) hits[t] += copy.match_string("node-" + std::to_string(i));
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(hits, std::vector<int>(4, 1000));
}

}  // namespace
}  // namespace vc::go
