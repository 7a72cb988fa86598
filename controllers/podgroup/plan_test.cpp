#include "controllers/podgroup/plan.h"

#include <gtest/gtest.h>

namespace vc::controllers::podgroup {
namespace {

using nlohmann::json;

std::shared_ptr<views::PodView> pod(const std::string& scheduler, const std::string& group = "") {
  json p = {{"metadata", {{"name", "p"}, {"namespace", "ns"}, {"uid", "pod-uid"}}},
            {"spec", {{"schedulerName", scheduler}}}};
  if (!group.empty()) p["metadata"]["annotations"] = {{"scheduling.k8s.io/group-name", group}};
  return views::make_pod_view(p);
}

const std::vector<std::string> kSchedulers = {"volcano", "volcano-2"};

TEST(PlanPod, MissingPodIsDropped) {
  auto plan = plan_pod(nullptr, false, kSchedulers);
  EXPECT_FALSE(plan.skip_reason.empty());
  EXPECT_FALSE(plan.create_podgroup);
  EXPECT_FALSE(plan.annotate_pod);
}

TEST(PlanPod, OtherSchedulersPodsAreSkipped) {
  auto plan = plan_pod(pod("default-scheduler").get(), false, kSchedulers);
  EXPECT_NE(plan.skip_reason.find("default-scheduler"), std::string::npos);
}

TEST(PlanPod, PodWithGroupAnnotationIsSkipped) {
  auto plan = plan_pod(pod("volcano-2", "job-pg").get(), false, kSchedulers);
  EXPECT_FALSE(plan.skip_reason.empty());
  EXPECT_FALSE(plan.annotate_pod);
}

TEST(PlanPod, VolcanoGroupNameAnnotationDoesNotCount) {
  json p = {{"metadata",
             {{"name", "p"},
              {"namespace", "ns"},
              {"uid", "u"},
              {"annotations", {{"scheduling.volcano.sh/group-name", "x"}}}}},
            {"spec", {{"schedulerName", "volcano"}}}};
  auto plan = plan_pod(views::make_pod_view(p).get(), false, kSchedulers);
  EXPECT_TRUE(plan.skip_reason.empty());
  EXPECT_TRUE(plan.create_podgroup);
}

TEST(PlanPod, UngroupedPodCreatesAndJoins) {
  auto plan = plan_pod(pod("volcano").get(), false, kSchedulers);
  EXPECT_TRUE(plan.skip_reason.empty());
  EXPECT_EQ(plan.podgroup_name, "podgroup-pod-uid");
  EXPECT_TRUE(plan.create_podgroup);
  EXPECT_TRUE(plan.annotate_pod);
}

TEST(PlanPod, ExistingPodGroupIsOnlyJoined) {
  auto plan = plan_pod(pod("volcano").get(), true, kSchedulers);
  EXPECT_FALSE(plan.create_podgroup);
  EXPECT_TRUE(plan.annotate_pod);
}

// Sibling pods of one owner plan the same PodGroup name, so a create repeated because the cache
// lacks the sibling's PodGroup meets AlreadyExists instead of making a second one.
TEST(PlanPod, SiblingsOfOneOwnerPlanTheSamePodGroupTheCacheLacks) {
  const auto sibling = [](const std::string& name) {
    return views::make_pod_view(
        {{"metadata",
          {{"name", name},
           {"namespace", "ns"},
           {"uid", "uid-" + name},
           {"ownerReferences",
            {{{"kind", "ReplicaSet"}, {"name", "rs"}, {"uid", "rs-uid"}, {"controller", true}}}}}},
         {"spec", {{"schedulerName", "volcano"}}}});
  };
  const auto first = plan_pod(sibling("web-1").get(), false, kSchedulers);
  const auto second = plan_pod(sibling("web-2").get(), false, kSchedulers);
  EXPECT_EQ(first.podgroup_name, "podgroup-rs-uid");
  EXPECT_EQ(second.podgroup_name, "podgroup-rs-uid");
  EXPECT_TRUE(second.create_podgroup);
  EXPECT_TRUE(second.annotate_pod);
}

TEST(PlanWorkload, ScaledToZeroDeletesThePodGroupOfTheWorkload) {
  json rs = {{"metadata", {{"namespace", "ns"}, {"name", "rs"}, {"uid", "rs-uid"}}},
             {"spec", {{"replicas", 0}}}};
  auto plan = plan_workload("ReplicaSet", rs);
  EXPECT_EQ(plan.action, WorkloadPlan::Action::DeletePodGroup);
  EXPECT_EQ(plan.namespace_, "ns");
  EXPECT_EQ(plan.podgroup_name, "podgroup-rs-uid");
}

TEST(PlanWorkload, ReplicaSetSelectsByMatchLabelsOnly) {
  json rs = {{"metadata", {{"namespace", "ns"}, {"uid", "u"}}},
             {"spec",
              {{"replicas", 2},
               {"selector",
                {{"matchLabels", {{"app", "web"}, {"tier", "fe"}}},
                 {"matchExpressions", {{{"key", "x"}, {"operator", "Exists"}}}}}}}}};
  auto plan = plan_workload("ReplicaSet", rs);
  EXPECT_EQ(plan.action, WorkloadPlan::Action::SyncFromFirstPod);
  EXPECT_EQ(plan.label_selector, "app=web,tier=fe");
}

TEST(PlanWorkload, StatefulSetAddsTheUpdateRevision) {
  json sts = {{"metadata", {{"namespace", "ns"}, {"uid", "u"}}},
              {"spec", {{"replicas", 3}, {"selector", {{"matchLabels", {{"app", "db"}}}}}}},
              {"status", {{"updateRevision", "db-7f9"}}}};
  auto plan = plan_workload("StatefulSet", sts);
  EXPECT_EQ(plan.label_selector, "app=db,controller-revision-hash=db-7f9");

  json match = {
      {"metadata",
       {{"name", "db-0"}, {"labels", {{"app", "db"}, {"controller-revision-hash", "db-7f9"}}}}}};
  json old = {
      {"metadata",
       {{"name", "db-1"}, {"labels", {{"app", "db"}, {"controller-revision-hash", "db-1"}}}}}};
  EXPECT_TRUE(matches(plan, *views::make_pod_view(match)));
  EXPECT_FALSE(matches(plan, *views::make_pod_view(old)));
}

}  // namespace
}  // namespace vc::controllers::podgroup
