#include "controllers/framework/decode_events.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/kube/events/fake_recorder.h"

namespace vc::controllers {
namespace {

using ::testing::HasSubstr;

kube::cache::DecodeRejection rejected_job() {
  kube::cache::DecodeRejection r;
  r.resource = "jobs.batch.volcano.sh";
  r.kind = "Job";
  r.api_version = "batch.volcano.sh/v1alpha1";
  r.namespace_ = "team-a";
  r.name = "tf";
  r.uid = "uid-1";
  r.resource_version = "812";
  r.error = "status.runningDuration: time: invalid duration \"soon\"";
  r.cached_resource_version = "701";
  return r;
}

TEST(DecodeRejectionEvents, WarnOnTheRejectedObjectNamingTheField) {
  kube::events::FakeRecorder recorder;
  decode_rejection_events(recorder)(rejected_job());
  const auto events = recorder.events();
  ASSERT_EQ(events.size(), 1u);
  const auto& e = events[0];
  EXPECT_EQ(e.type, kube::events::EventType::Warning);
  EXPECT_EQ(e.reason, "DecodeFailed");
  EXPECT_EQ(e.object.kind, "Job");
  EXPECT_EQ(e.object.api_version, "batch.volcano.sh/v1alpha1");
  EXPECT_EQ(e.object.namespace_, "team-a");
  EXPECT_EQ(e.object.name, "tf");
  EXPECT_EQ(e.object.uid, "uid-1");
  EXPECT_EQ(e.object.resource_version, "812");
  EXPECT_THAT(e.message, HasSubstr("at resourceVersion 812: status.runningDuration:"));
  EXPECT_THAT(e.message, HasSubstr("last version they decoded (701)"));
}

TEST(DecodeRejectionEvents, NeverDecodedObjectSaysItIsIgnoredNotDeleted) {
  auto r = rejected_job();
  r.cached_resource_version.clear();
  EXPECT_THAT(decode_failed_message(r), HasSubstr("ignore it until a version decodes"));
}

}  // namespace
}  // namespace vc::controllers
