#include "controllers/job/pending_deletes.h"

#include <gtest/gtest.h>

namespace vc::controllers::job {
namespace {

using namespace std::chrono_literals;
using Clock = PendingDeletes::Clock;

TEST(PendingDeletes, RecordedUntilForgotten) {
  PendingDeletes deletes(1min);
  const auto t0 = Clock::time_point{} + 1h;
  EXPECT_TRUE(deletes.empty());
  deletes.record("uid-a", t0);
  EXPECT_FALSE(deletes.empty());
  EXPECT_TRUE(deletes.contains("uid-a", t0 + 1s));
  EXPECT_FALSE(deletes.contains("uid-b", t0 + 1s)) << "another object, e.g. the re-created pod";
  deletes.forget("uid-a");
  EXPECT_FALSE(deletes.contains("uid-a", t0 + 1s));
  EXPECT_TRUE(deletes.empty());
}

TEST(PendingDeletes, EntriesExpireAfterTheTtlAndArePruned) {
  PendingDeletes deletes(1min);
  const auto t0 = Clock::time_point{} + 1h;
  deletes.record("old", t0);
  EXPECT_TRUE(deletes.contains("old", t0 + 59s));
  EXPECT_FALSE(deletes.contains("old", t0 + 60s));
  deletes.record("new", t0 + 61s);
  EXPECT_EQ(deletes.size(), 1u) << "the expired entry must be dropped by a later record";
  EXPECT_TRUE(deletes.contains("new", t0 + 62s));
}

TEST(PendingDeletes, EmptyUidIsNeverRecorded) {
  PendingDeletes deletes;
  deletes.record("");
  EXPECT_TRUE(deletes.empty());
  EXPECT_FALSE(deletes.contains(""));
}

TEST(PendingDeletes, ForgettingAnUnknownUidKeepsTheOthers) {
  PendingDeletes deletes;
  deletes.record("a");
  deletes.forget("b");
  EXPECT_EQ(deletes.size(), 1u);
  EXPECT_TRUE(deletes.contains("a"));
}

}  // namespace
}  // namespace vc::controllers::job
