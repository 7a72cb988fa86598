#include "controllers/garbagecollector/job_view.h"

#include <gtest/gtest.h>

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

TEST(GcJobView, TransformCachesACompactView) {
  const auto t = gc_job_transform();
  EXPECT_EQ(t.name, "gc-job");
  auto obj = t.fn(json::parse(R"({"metadata": {"namespace": "a", "name": "b"}})"));
  ASSERT_NE(dynamic_cast<const GcJob*>(obj.get()), nullptr);
  EXPECT_EQ(obj->key(), "a/b");
}

}  // namespace
}  // namespace vc::controllers::gc
