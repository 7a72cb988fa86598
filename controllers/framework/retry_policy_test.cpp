// The retry policy as plain data: how a failed reconcile is classified and what the loop does
// with it, failure after failure.

#include "controllers/framework/retry_policy.h"

#include <utility>

#include <gtest/gtest.h>

namespace vc::controllers {
namespace {

// Feeds `failures` failures of one class through decide_retry as the worker loop does (counting
// the counted ones); returns the 1-based failure that dropped the key, or 0 if none did.
int drop_after(FailureClass c, int failures, int max_requeue) {
  FailureCounts counts;
  for (int i = 1; i <= failures; ++i) {
    const RetryDecision d = decide_retry(c, counts.get("ns/a"), max_requeue);
    if (d.action == RetryAction::Drop) return i;
    if (d.counted) counts.add("ns/a");
  }
  return 0;
}

TEST(RetryPolicy, DeclaredClassIsRaisedByWhatTheCallsSaw) {
  EXPECT_EQ(classify_failure(FailureClass::Counted, 0, 0), FailureClass::Counted);
  EXPECT_EQ(classify_failure(FailureClass::Counted, 1, 0), FailureClass::Transient);
  EXPECT_EQ(classify_failure(FailureClass::Counted, 3, 1), FailureClass::Exception);
  EXPECT_EQ(classify_failure(FailureClass::Counted, 0, 1), FailureClass::Exception);
  EXPECT_EQ(classify_failure(FailureClass::Transient, 0, 0), FailureClass::Transient);
  EXPECT_EQ(classify_failure(FailureClass::Exception, 0, 0), FailureClass::Exception);
  EXPECT_EQ(classify_failure(FailureClass::Exception, 5, 0), FailureClass::Exception);
}

TEST(RetryPolicy, TransientFailuresAndExceptionsNeverDrop) {
  // Transient ones wait at most the cap; exceptions (our bugs) keep the queue's full backoff.
  const std::pair<FailureClass, RetryAction> cases[] = {
      {FailureClass::Transient, RetryAction::RetryCapped},
      {FailureClass::Exception, RetryAction::Retry}};
  for (const auto& [failure, action] : cases) {
    SCOPED_TRACE(to_string(failure));
    EXPECT_EQ(drop_after(failure, 1000, 15), 0);
    EXPECT_EQ(drop_after(failure, 100, 0), 0);
    const RetryDecision d = decide_retry(failure, 0, 0);
    EXPECT_EQ(d.action, action);
    EXPECT_FALSE(d.counted);
  }
}

TEST(RetryPolicy, CountedFailuresDropAfterMaxRequeueRetries) {
  EXPECT_EQ(drop_after(FailureClass::Counted, 100, 15), 16);  // the first try and 15 retries
  EXPECT_EQ(drop_after(FailureClass::Counted, 100, 3), 4);
  EXPECT_EQ(drop_after(FailureClass::Counted, 100, 0), 1);
  EXPECT_EQ(drop_after(FailureClass::Counted, 1000, -1), 0);
}

TEST(RetryPolicy, TransientFailuresBetweenCountedOnesDoNotAdvanceTheDrop) {
  FailureCounts counts;
  int counted_failures = 0;
  bool dropped = false;
  // Three counted failures, each followed by ten transient ones, with max_requeue 3: not dropped
  // until the fourth counted failure.
  for (int round = 0; round < 4 && !dropped; ++round) {
    const RetryDecision d = decide_retry(FailureClass::Counted, counts.get("k"), 3);
    ++counted_failures;
    if (d.action == RetryAction::Drop) {
      dropped = true;
      break;
    }
    counts.add("k");
    for (int i = 0; i < 10; ++i) {
      EXPECT_NE(decide_retry(FailureClass::Transient, counts.get("k"), 3).action,
                RetryAction::Drop);
    }
  }
  EXPECT_TRUE(dropped);
  EXPECT_EQ(counted_failures, 4);
}

TEST(RetryPolicy, FailureCountsForgetPerKey) {
  FailureCounts counts;
  EXPECT_FALSE(counts.any());
  counts.add("a");
  counts.add("a");
  counts.add("b");
  EXPECT_TRUE(counts.any());
  EXPECT_EQ(counts.get("a"), 2);
  EXPECT_EQ(counts.get("b"), 1);
  counts.forget("a");
  EXPECT_EQ(counts.get("a"), 0);
  EXPECT_EQ(counts.get("b"), 1);
  counts.forget("b");
  EXPECT_FALSE(counts.any());
}

}  // namespace
}  // namespace vc::controllers
