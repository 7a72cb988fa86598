#include <gtest/gtest.h>

#include "controllers/job/derive/podgroup.h"
#include "controllers/job/derive/test_jobs.h"

namespace vc::controllers::job {
namespace {

using nlohmann::json;
using testing::make_job;
using testing::make_task;

// A two-task job (no partitions) and the PodGroup as the API server would return it.
class UpdatePodgroup : public ::testing::Test {
 protected:
  void SetUp() override {
    job_ = make_job();
    job_.spec.min_available = 2;
    job_.spec.priority_class_name = "high";
    job_.spec.tasks = {make_task("ps", 1, "100m"), make_task("worker", 2, "200m", 1)};
    stored_ = build_podgroup(job_, nullptr);
    stored_["metadata"]["resourceVersion"] = "42";
    stored_["status"] = {{"phase", "Inqueue"}};
  }

  std::optional<json> update() const { return update_podgroup(job_, stored_, nullptr); }

  // The cheap check must say "maybe" whenever the full comparison finds a change.
  void expect_check_agrees() const {
    const bool changes = update().has_value();
    const bool maybe = podgroup_may_need_update(job_, *views::make_podgroup_view(stored_), nullptr);
    if (changes) {
      EXPECT_TRUE(maybe) << stored_.dump();
    }
    bool partitioned = false;
    for (const TaskSpec& t : job_.spec.tasks) partitioned = partitioned || t.partition_policy;
    if (!changes && !partitioned) {
      EXPECT_FALSE(maybe) << stored_.dump();
    }
  }

  Job job_;
  json stored_;
};

TEST_F(UpdatePodgroup, BuiltPodgroupNeedsNoUpdate) {
  EXPECT_EQ(update(), std::nullopt);
  expect_check_agrees();
}

TEST_F(UpdatePodgroup, PriorityClassChangeIsWrittenAndClearedWhenJobHasNone) {
  job_.spec.priority_class_name = "low";
  auto updated = update();
  ASSERT_TRUE(updated);
  EXPECT_EQ((*updated)["spec"]["priorityClassName"], "low");
  EXPECT_EQ((*updated)["metadata"]["resourceVersion"], "42");  // a PUT of the stored copy
  expect_check_agrees();

  job_.spec.priority_class_name.clear();
  updated = update();
  ASSERT_TRUE(updated);
  EXPECT_FALSE((*updated)["spec"].contains("priorityClassName"));
  expect_check_agrees();
}

TEST_F(UpdatePodgroup, MinMemberChangeRewritesMinResourcesToo) {
  job_.spec.min_available = 3;
  auto updated = update();
  ASSERT_TRUE(updated);
  EXPECT_EQ((*updated)["spec"]["minMember"], 3);
  EXPECT_EQ((*updated)["spec"]["minResources"],
            (json{{"count/pods", "3"}, {"cpu", "500m"}, {"pods", "3"}, {"requests.cpu", "500m"}}));
  expect_check_agrees();
}

TEST_F(UpdatePodgroup, MinResourcesComparedByValueNotText) {
  stored_["spec"]["minResources"]["cpu"] = "0.3";  // 300m, printed differently
  EXPECT_EQ(update(), std::nullopt);
  expect_check_agrees();
}

TEST_F(UpdatePodgroup, MinResourcesDifferenceRewritesBoth) {
  stored_["spec"]["minResources"]["cpu"] = "1";
  stored_["spec"]["minMember"] = 2;
  auto updated = update();
  ASSERT_TRUE(updated);
  EXPECT_EQ((*updated)["spec"]["minResources"]["cpu"], "300m");
  expect_check_agrees();
}

TEST_F(UpdatePodgroup, MissingMinResourcesIsAChangeEvenWhenTheListIsEmpty) {
  job_.spec.min_available = 0;
  stored_["spec"].erase("minMember");
  stored_["spec"].erase("minResources");
  auto updated = update();
  ASSERT_TRUE(updated);
  EXPECT_EQ((*updated)["spec"]["minResources"], json::object());
  EXPECT_FALSE((*updated)["spec"].contains("minMember"));
  expect_check_agrees();
  stored_ = *updated;
  EXPECT_EQ(update(), std::nullopt);
  expect_check_agrees();
}

TEST_F(UpdatePodgroup, MissingMinTaskMemberIsRecreated) {
  stored_["spec"].erase("minTaskMember");
  auto updated = update();
  ASSERT_TRUE(updated);
  EXPECT_EQ((*updated)["spec"]["minTaskMember"], (json{{"ps", 1}, {"worker", 1}}));
  expect_check_agrees();
}

TEST_F(UpdatePodgroup, ChangedTaskMemberIsUpdatedAndStaleKeysAreKept) {
  stored_["spec"]["minTaskMember"] = {{"ps", 5}, {"old-task", 7}};
  auto updated = update();
  ASSERT_TRUE(updated);
  EXPECT_EQ((*updated)["spec"]["minTaskMember"], (json{{"ps", 1}, {"worker", 1}, {"old-task", 7}}));
  expect_check_agrees();
}

TEST_F(UpdatePodgroup, StaleTaskKeyAloneIsNoChange) {
  stored_["spec"]["minTaskMember"]["old-task"] = 7;
  EXPECT_EQ(update(), std::nullopt);
  expect_check_agrees();
}

TEST_F(UpdatePodgroup, QueueLabelsAnnotationsAndTopologyAreNeverUpdated) {
  stored_["spec"]["queue"] = "elsewhere";
  stored_["spec"]["networkTopology"] = {{"mode", "soft"}};
  stored_["metadata"]["labels"] = {{"x", "y"}};
  stored_["metadata"]["annotations"] = {{"k", "v"}};
  job_.spec.queue = "q2";
  job_.labels = {{"team", "ml"}};
  job_.annotations = {{"a", "b"}};
  job_.spec.network_topology = NetworkTopology{"hard", 1, ""};
  EXPECT_EQ(update(), std::nullopt);
  expect_check_agrees();
}

PartitionPolicy partition(std::int32_t size, std::int32_t min) {
  PartitionPolicy p;
  p.total_partitions = 4;
  p.partition_size = size;
  p.min_partitions = min;
  return p;
}

TEST_F(UpdatePodgroup, PartitionedJobMatchingItsPolicyNeedsNoUpdate) {
  job_.spec.tasks[1].partition_policy = partition(2, 1);
  job_.spec.tasks[1].partition_policy->network_topology = NetworkTopology{"hard", 1, ""};
  stored_ = build_podgroup(job_, nullptr);
  // What a decode/encode round trip may add or drop must not count as a difference.
  stored_["spec"]["subGroupPolicy"][0]["labelSelector"]["matchExpressions"] = json::array();
  stored_["spec"]["subGroupPolicy"][0]["networkTopology"]["highestTierName"] = "";
  EXPECT_EQ(update(), std::nullopt);
  expect_check_agrees();
}

TEST_F(UpdatePodgroup, ChangedPartitionPolicyRebuildsTheList) {
  job_.spec.tasks[1].partition_policy = partition(2, 1);
  stored_ = build_podgroup(job_, nullptr);
  stored_["spec"]["subGroupPolicy"].push_back({{"name", "ghost"}});
  job_.spec.tasks[1].partition_policy->min_partitions = 2;
  auto updated = update();
  ASSERT_TRUE(updated);
  ASSERT_EQ((*updated)["spec"]["subGroupPolicy"].size(), 1u);
  EXPECT_EQ((*updated)["spec"]["subGroupPolicy"][0], subgroup_policy(job_.spec.tasks[1]));
  EXPECT_EQ((*updated)["spec"]["subGroupPolicy"][0]["minSubGroups"], 2);
  expect_check_agrees();
}

TEST_F(UpdatePodgroup, EntryForAnUnpartitionedTaskIsDropped) {
  stored_["spec"]["subGroupPolicy"] = json::array({{{"name", "ps"}, {"subGroupSize", 1}}});
  auto updated = update();
  ASSERT_TRUE(updated);
  EXPECT_FALSE((*updated)["spec"].contains("subGroupPolicy"));
}

TEST_F(UpdatePodgroup, EntryNamedAfterNoTaskIsLeftAlone) {
  stored_["spec"]["subGroupPolicy"] = json::array({{{"name", "ghost"}}});
  EXPECT_EQ(update(), std::nullopt);
  expect_check_agrees();
}

TEST_F(UpdatePodgroup, MissingSpecIsFilledIn) {
  stored_.erase("spec");
  auto updated = update();
  ASSERT_TRUE(updated);
  EXPECT_EQ((*updated)["spec"]["minMember"], 2);
  EXPECT_EQ((*updated)["spec"]["minTaskMember"], (json{{"ps", 1}, {"worker", 1}}));
}

TEST_F(UpdatePodgroup, CheapCheckSeesMissingTaskEntry) {
  stored_["spec"]["minTaskMember"].erase("worker");
  EXPECT_TRUE(update().has_value());
  expect_check_agrees();
}

}  // namespace
}  // namespace vc::controllers::job
