#include "controllers/job/derive/podgroup.h"

#include <gtest/gtest.h>

#include "controllers/job/derive/test_jobs.h"

namespace vc::controllers::job {
namespace {

using nlohmann::json;
using testing::make_job;
using testing::make_task;

const json kOwner = {{"apiVersion", "batch.volcano.sh/v1alpha1"},
                     {"kind", "Job"},
                     {"name", "job1"},
                     {"uid", "0a1b2c3d-uid"},
                     {"controller", true},
                     {"blockOwnerDeletion", true}};

PartitionPolicy partition(std::int32_t total, std::int32_t size, std::int32_t min) {
  PartitionPolicy p;
  p.total_partitions = total;
  p.partition_size = size;
  p.min_partitions = min;
  return p;
}

TEST(PodgroupName, IsJobNameDashUid) {
  EXPECT_EQ(podgroup_name(make_job("train", "ns", "u-1")), "train-u-1");
}

TEST(MinTaskMember, PrefersMinAvailableThenPartitionsThenReplicas) {
  TaskSpec t = make_task("t", 8, "", 3);
  t.partition_policy = partition(4, 2, 2);
  EXPECT_EQ(min_task_member(t), 3);
  t.min_available.reset();
  EXPECT_EQ(min_task_member(t), 4);  // minPartitions x partitionSize
  t.partition_policy = partition(4, 2, 0);
  EXPECT_EQ(min_task_member(t), 8);  // a zero factor falls back to replicas
  t.partition_policy.reset();
  EXPECT_EQ(min_task_member(t), 8);
}

TEST(BuildPodgroup, SetsEveryFieldFromTheJob) {
  Job job = make_job();
  job.annotations = {{"a.example/x", "1"}, {"volcano.sh/preemptable", "true"}};
  job.labels = {{"team", "ml"}};
  job.spec.min_available = 3;
  job.spec.priority_class_name = "high";
  job.spec.queue = "q1";
  job.spec.network_topology = NetworkTopology{"hard", 2, "ignored-when-tier-allowed-set"};
  TaskSpec ps = make_task("ps", 1, "100m", 1);
  TaskSpec worker = make_task("worker", 4, "200m");
  worker.partition_policy = partition(2, 2, 1);
  worker.partition_policy->network_topology = NetworkTopology{"soft", 1, "tier-a"};
  job.spec.tasks = {ps, worker};

  const json expected = {
      {"apiVersion", "scheduling.volcano.sh/v1beta1"},
      {"kind", "PodGroup"},
      {"metadata",
       {{"name", "job1-0a1b2c3d-uid"},
        {"namespace", "ns1"},
        {"annotations", {{"a.example/x", "1"}, {"volcano.sh/preemptable", "true"}}},
        {"labels", {{"team", "ml"}}},
        {"ownerReferences", json::array({kOwner})}}},
      {"spec",
       {{"minMember", 3},
        {"minTaskMember", {{"ps", 1}, {"worker", 2}}},
        {"queue", "q1"},
        {"priorityClassName", "high"},
        // Σ(minAvailable ?? replicas) = 5 > 3: the first three pods, one ps and two workers.
        {"minResources",
         {{"count/pods", "3"}, {"cpu", "500m"}, {"pods", "3"}, {"requests.cpu", "500m"}}},
        {"networkTopology", {{"mode", "hard"}, {"highestTierAllowed", 2}}},
        {"subGroupPolicy",
         json::array({{{"name", "worker"},
                       {"subGroupSize", 2},
                       {"minSubGroups", 1},
                       {"labelSelector", {{"matchLabels", {{"volcano.sh/task-spec", "worker"}}}}},
                       {"matchLabelKeys", json::array({"volcano.sh/partition-id"})},
                       {"networkTopology",
                        {{"mode", "soft"},
                         {"highestTierAllowed", 1},
                         {"highestTierName", "tier-a"}}}}})}}}};
  EXPECT_EQ(build_podgroup(job, nullptr), expected) << build_podgroup(job, nullptr).dump(2);
}

TEST(BuildPodgroup, LeavesOutEmptyFieldsButAlwaysSendsMinResources) {
  Job job = make_job();
  job.spec.queue.clear();
  job.spec.tasks = {make_task("a", 1)};
  const json pg = build_podgroup(job, nullptr);
  EXPECT_FALSE(pg["metadata"].contains("annotations"));
  EXPECT_FALSE(pg["metadata"].contains("labels"));
  for (const char* absent :
       {"minMember", "queue", "priorityClassName", "networkTopology", "subGroupPolicy"}) {
    EXPECT_FALSE(pg["spec"].contains(absent)) << absent;
  }
  EXPECT_EQ(pg["spec"]["minResources"], json::object());
  EXPECT_EQ(pg["spec"]["minTaskMember"], (json{{"a", 1}}));
}

TEST(BuildPodgroup, NetworkTopologyUsesTierNameOnlyWithoutTierAllowed) {
  Job job = make_job();
  job.spec.tasks = {make_task("a", 1)};
  job.spec.network_topology = NetworkTopology{"soft", std::nullopt, "rack"};
  EXPECT_EQ(build_podgroup(job, nullptr)["spec"]["networkTopology"],
            (json{{"mode", "soft"}, {"highestTierName", "rack"}}));
}

TEST(PodgroupAdmitted, RequiresAPhasePastPending) {
  EXPECT_FALSE(podgroup_admitted(nullptr));
  for (const char* phase : {"", "Pending"}) {
    auto pg =
        views::make_podgroup_view({{"metadata", {{"name", "p"}}}, {"status", {{"phase", phase}}}});
    EXPECT_FALSE(podgroup_admitted(pg.get())) << phase;
  }
  for (const char* phase : {"Inqueue", "Running", "Unknown", "Completed"}) {
    auto pg =
        views::make_podgroup_view({{"metadata", {{"name", "p"}}}, {"status", {{"phase", phase}}}});
    EXPECT_TRUE(podgroup_admitted(pg.get())) << phase;
  }
}

}  // namespace
}  // namespace vc::controllers::job
