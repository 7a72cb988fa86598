#include "controllers/job/pod_event_batch.h"

#include <gtest/gtest.h>

namespace vc::controllers::job {
namespace {

TEST(PodEventBatch, ShortWhileTheShardIsNearlyEmptyFullSecondWithABacklog) {
  EXPECT_EQ(pod_event_batch(0), std::chrono::milliseconds(200));
  EXPECT_EQ(pod_event_batch(kBusyShardRequests - 1), std::chrono::milliseconds(200));
  EXPECT_EQ(pod_event_batch(kBusyShardRequests), std::chrono::milliseconds(1000));
  EXPECT_EQ(pod_event_batch(480), std::chrono::milliseconds(1000)) << "a burst of jobs";
}

}  // namespace
}  // namespace vc::controllers::job
