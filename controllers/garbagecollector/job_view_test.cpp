#include "controllers/garbagecollector/job_view.h"

#include <gtest/gtest.h>

#include "controllers/job/model/job_json.h"

namespace vc::controllers::gc {
namespace {

using nlohmann::json;

TEST(GcJobView, ReadsTheFieldsTheCollectorNeeds) {
  const json j = json::parse(R"({
    "apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
    "metadata": {"namespace": "team", "name": "train", "uid": "u-1", "resourceVersion": "42",
                 "deletionTimestamp": "2024-05-01T12:00:00Z"},
    "spec": {"ttlSecondsAfterFinished": 30, "tasks": []},
    "status": {"state": {"phase": "Completed", "lastTransitionTime": "2024-05-01T11:00:00Z"}}
  })");
  const GcJob g = gc_job_from_json(j);
  EXPECT_EQ(g.key(), "team/train");
  EXPECT_EQ(g.uid, "u-1");
  EXPECT_EQ(g.resource_version, "42");
  EXPECT_TRUE(g.being_deleted);
  ASSERT_TRUE(g.ttl_seconds);
  EXPECT_EQ(*g.ttl_seconds, 30);
  EXPECT_EQ(g.phase, "Completed");
  ASSERT_TRUE(g.transitioned);
  EXPECT_EQ(api::format_rfc3339(*g.transitioned), "2024-05-01T11:00:00Z");
}

TEST(GcJobView, AbsentOrMistypedFieldsAreTreatedAsMissing) {
  const json j = json::parse(R"({
    "metadata": {"namespace": "team", "name": "train", "deletionTimestamp": null},
    "spec": {"ttlSecondsAfterFinished": "30"},
    "status": {"state": {"phase": 7, "lastTransitionTime": "yesterday"}}
  })");
  const GcJob g = gc_job_from_json(j);
  EXPECT_FALSE(g.being_deleted);
  EXPECT_FALSE(g.ttl_seconds);
  EXPECT_EQ(g.phase, "");
  EXPECT_FALSE(g.transitioned);
  EXPECT_FALSE(gc_job_from_json(json::array()).ttl_seconds);
}

TEST(GcJobView, SharedJobViewGivesTheSameFieldsAsTheJson) {
  const json j = json::parse(R"({
    "apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
    "metadata": {"namespace": "a", "name": "b", "uid": "u", "resourceVersion": "7",
                 "deletionTimestamp": "2024-01-02T03:04:05Z"},
    "spec": {"ttlSecondsAfterFinished": 30},
    "status": {"state": {"phase": "Completed", "lastTransitionTime": "2024-01-02T03:00:00Z"}}})");
  const GcJob from_json = gc_job_from_json(j);
  const GcJob from_view = gc_job_of(*job::job_from_json(j));
  EXPECT_EQ(from_view.key(), "a/b");
  EXPECT_EQ(from_view.uid, from_json.uid);
  EXPECT_EQ(from_view.resource_version, from_json.resource_version);
  EXPECT_EQ(from_view.being_deleted, from_json.being_deleted);
  EXPECT_EQ(from_view.ttl_seconds, from_json.ttl_seconds);
  EXPECT_EQ(from_view.phase, from_json.phase);
  EXPECT_EQ(from_view.transitioned, from_json.transitioned);
  EXPECT_TRUE(from_view.being_deleted);
  EXPECT_EQ(from_view.ttl_seconds, 30);
}

}  // namespace
}  // namespace vc::controllers::gc
