#include "controllers/framework/own_writes.h"

#include <gtest/gtest.h>

namespace vc::controllers {
namespace {

TEST(OwnWrites, NothingWrittenMeansTheCacheIsNotBehind) {
  OwnWrites w;
  EXPECT_FALSE(w.cache_behind("ns/a", "10"));
}

TEST(OwnWrites, TheCacheIsBehindWhileItHoldsTheVersionOurWriteReplaced) {
  OwnWrites w;
  w.wrote("ns/a", "10");
  EXPECT_TRUE(w.cache_behind("ns/a", "10"));
  EXPECT_TRUE(w.cache_behind("ns/a", "10"));   // still behind: the record stays
  EXPECT_FALSE(w.cache_behind("ns/b", "10"));  // other keys are not affected
  EXPECT_EQ(w.size(), 1u);
}

TEST(OwnWrites, AnyOtherVersionIsPastTheWriteAndDropsTheRecord) {
  OwnWrites w;
  w.wrote("ns/a", "10");
  EXPECT_FALSE(w.cache_behind("ns/a", "12"));  // ours was 11, someone wrote 12 after it
  EXPECT_EQ(w.size(), 0u);
  EXPECT_FALSE(w.cache_behind("ns/a", "10"));  // the record is gone for good
}

TEST(OwnWrites, TheLatestWriteIsTheOneWaitedFor) {
  OwnWrites w;
  w.wrote("ns/a", "10");
  w.wrote("ns/a", "11");  // a second write, planned from a cache that had seen the first
  EXPECT_TRUE(w.cache_behind("ns/a", "11"));
  EXPECT_FALSE(w.cache_behind("ns/a", "12"));
}

TEST(OwnWrites, ForgetAndEmptyVersionsLeaveNothingToWaitFor) {
  OwnWrites w;
  w.wrote("ns/a", "10");
  w.forget("ns/a");
  EXPECT_FALSE(w.cache_behind("ns/a", "10"));
  w.wrote("ns/b", "");
  EXPECT_EQ(w.size(), 0u);
}

}  // namespace
}  // namespace vc::controllers
