#include "controllers/framework/own_writes.h"

#include <gtest/gtest.h>

namespace vc::controllers {
namespace {

using namespace std::chrono_literals;
const OwnWrites::Clock::time_point t0{};

TEST(OwnWrites, NothingWrittenMeansTheCacheIsNotBehind) {
  OwnWrites w;
  EXPECT_FALSE(w.cache_behind("ns/a", "10", t0));
}

TEST(OwnWrites, TheCacheIsBehindWhileItHoldsTheVersionOurWriteReplaced) {
  OwnWrites w;
  w.wrote("ns/a", "10", "11", t0);
  EXPECT_TRUE(w.cache_behind("ns/a", "10", t0 + 1ms));
  EXPECT_TRUE(w.cache_behind("ns/a", "10", t0 + 2ms));   // still behind: the record stays
  EXPECT_FALSE(w.cache_behind("ns/b", "10", t0 + 2ms));  // other keys are not affected
  EXPECT_EQ(w.size(), 1u);
}

TEST(OwnWrites, AnyOtherVersionIsPastTheWriteAndDropsTheRecord) {
  OwnWrites w;
  w.wrote("ns/a", "10", "11", t0);
  EXPECT_FALSE(w.cache_behind("ns/a", "12", t0));  // ours was 11, someone wrote 12 after it
  EXPECT_EQ(w.size(), 0u);
  EXPECT_FALSE(w.cache_behind("ns/a", "10", t0));  // the record is gone for good
}

TEST(OwnWrites, TheLatestPlansReadIsTheOneWaitedPast) {
  OwnWrites w;
  w.wrote("ns/a", "10", "11", t0);
  w.wrote("ns/a", "10", "12", t0);  // a second write from the same snapshot
  EXPECT_TRUE(w.cache_behind("ns/a", "10", t0));
  w.wrote("ns/a", "12", "13", t0);  // a plan that read 12 wrote again
  EXPECT_TRUE(w.cache_behind("ns/a", "12", t0));
  EXPECT_FALSE(w.cache_behind("ns/a", "13", t0));
}

// No event would ever move the cache past a write that kept the version, or one we cannot compare.
TEST(OwnWrites, WritesThatChangedNothingOrCannotBeComparedAreNotRecorded) {
  OwnWrites w;
  w.wrote("ns/a", "10", "10", t0);
  w.wrote("ns/b", "", "11", t0);
  w.wrote("ns/c", "10", "", t0);
  EXPECT_EQ(w.size(), 0u);
  EXPECT_FALSE(w.cache_behind("ns/a", "10", t0));
}

TEST(OwnWrites, ARecordOlderThanMaxWaitNoLongerHoldsTheKey) {
  OwnWrites w(5s);
  w.wrote("ns/a", "10", "11", t0);
  EXPECT_TRUE(w.cache_behind("ns/a", "10", t0 + 4s));
  EXPECT_FALSE(w.cache_behind("ns/a", "10", t0 + 5s));
  EXPECT_EQ(w.size(), 0u);
}

TEST(OwnWrites, ForgetLeavesNothingToWaitFor) {
  OwnWrites w;
  w.wrote("ns/a", "10", "11", t0);
  w.forget("ns/a");
  EXPECT_FALSE(w.cache_behind("ns/a", "10", t0));
}

}  // namespace
}  // namespace vc::controllers
