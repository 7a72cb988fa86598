#include "controllers/podgroup/derive.h"

#include <gtest/gtest.h>

namespace vc::controllers::podgroup {
namespace {

using nlohmann::json;

const api::TimePoint kNow = *api::parse_time("2024-05-01T10:00:00Z");

json pod_json() {
  return {{"metadata",
           {{"name", "web-1"},
            {"namespace", "ns"},
            {"uid", "pod-uid"},
            {"labels", {{"volcano.sh/preemptable", "true"}, {"app", "web"}}},
            {"annotations",
             {{"scheduling.volcano.sh/queue-name", "q1"},
              {"volcano.sh/revocable-zone", "*"},
              {"volcano.sh/jdb-min-available", "2"},
              {"volcano.sh/jdb-max-unavailable", "1"}}},
            {"ownerReferences",
             {{{"apiVersion", "apps/v1"},
               {"kind", "ReplicaSet"},
               {"name", "web-abc"},
               {"uid", "rs-uid"},
               {"controller", true},
               {"blockOwnerDeletion", true}},
              {{"apiVersion", "example.com/v1"},
               {"kind", "Thing"},
               {"name", "t"},
               {"uid", "t-uid"}}}}}},
          {"spec",
           {{"schedulerName", "volcano"},
            {"priorityClassName", "high"},
            {"containers",
             {{{"name", "c"},
               {"resources",
                {{"requests", {{"cpu", "1"}, {"memory", "1Gi"}, {"nvidia.com/gpu", "1"}}},
                 {"limits", {{"cpu", "2"}}}}}}}}}},
          {"status", {{"phase", "Pending"}}}};
}

std::shared_ptr<views::PodView> pod(json j = pod_json()) {
  return views::make_pod_view(j);
}

TEST(PodGroupName, UsesTheControllerOwnerUidElseThePodUid) {
  EXPECT_EQ(podgroup_name(*pod()), "podgroup-rs-uid");
  json bare = pod_json();
  bare["metadata"].erase("ownerReferences");
  EXPECT_EQ(podgroup_name(*pod(bare)), "podgroup-pod-uid");
  json not_controller = pod_json();
  not_controller["metadata"]["ownerReferences"][0]["controller"] = false;
  EXPECT_EQ(podgroup_name(*pod(not_controller)), "podgroup-pod-uid");
}

TEST(PodQuotaUsage, CountsComputeResourcesOfALivePod) {
  auto usage = pod_quota_usage(*pod(), kNow);
  std::map<std::string, std::string> got;
  for (const auto& [k, q] : usage) got[k] = q.to_string();
  std::map<std::string, std::string> want = {{"count/pods", "1"},
                                             {"pods", "1"},
                                             {"cpu", "1"},
                                             {"requests.cpu", "1"},
                                             {"limits.cpu", "2"},
                                             {"memory", "1Gi"},
                                             {"requests.memory", "1Gi"},
                                             {"requests.nvidia.com/gpu", "1"}};
  EXPECT_EQ(got, want);
}

TEST(PodQuotaUsage, FinishedOrExpiredPodsCountOnlyAsObjects) {
  json done = pod_json();
  done["status"]["phase"] = "Succeeded";
  EXPECT_EQ(pod_quota_usage(*pod(done), kNow).size(), 1u);

  json deleting = pod_json();
  deleting["metadata"]["deletionTimestamp"] = "2024-05-01T09:59:00Z";
  deleting["metadata"]["deletionGracePeriodSeconds"] = 30;
  EXPECT_EQ(pod_quota_usage(*pod(deleting), kNow).size(), 1u);  // 60 s ago, 30 s grace
  deleting["metadata"]["deletionGracePeriodSeconds"] = 120;
  EXPECT_GT(pod_quota_usage(*pod(deleting), kNow).size(), 1u);  // still within its grace
}

TEST(MinResources, IsUsageTimesMinMemberWithUnprefixedExtendedResources) {
  auto r = min_resources(*pod(), 2, kNow);
  EXPECT_EQ(r.at("nvidia.com/gpu").to_string(), "2");
  EXPECT_EQ(r.at("requests.nvidia.com/gpu").to_string(), "2");
  EXPECT_EQ(r.at("cpu").to_string(), "2");
  EXPECT_EQ(r.at("memory").to_string(), "2Gi");
  EXPECT_EQ(r.at("pods").to_string(), "2");
  EXPECT_EQ(r.count("requests.pods"), 0u);
  EXPECT_TRUE(min_resources(*pod(), 0, kNow).empty());
}

TEST(MinResources, ThreeReplicasOfOneCpuMakeThreeCpus) {
  json p = pod_json();
  p["spec"]["containers"][0]["resources"] = {{"requests", {{"cpu", "1"}}}};
  EXPECT_EQ(min_resources(*pod(p), 3, kNow).at("cpu").to_string(), "3");
}

TEST(DerivePodGroup, BuildsThePodGroupOfSpec33) {
  OwnerAnnotations owner = {{"scheduling.volcano.sh/group-min-member", "3"},
                            {"volcano.sh/cooldown-time", "60s"},
                            {"scheduling.volcano.sh/queue-name", "owner-queue"},
                            {"other/key", "x"}};
  ControllerOptions options;
  auto d = derive_podgroup(*pod(), owner, options, kNow);
  EXPECT_TRUE(d.warnings.empty());
  const json& pg = d.object;
  EXPECT_EQ(pg["apiVersion"], "scheduling.volcano.sh/v1beta1");
  EXPECT_EQ(pg["kind"], "PodGroup");
  EXPECT_EQ(pg["metadata"]["name"], "podgroup-rs-uid");
  EXPECT_EQ(pg["metadata"]["namespace"], "ns");
  // Every owner reference of the pod is copied verbatim.
  ASSERT_EQ(pg["metadata"]["ownerReferences"].size(), 2u);
  EXPECT_EQ(pg["metadata"]["ownerReferences"][0], json({{"apiVersion", "apps/v1"},
                                                        {"kind", "ReplicaSet"},
                                                        {"name", "web-abc"},
                                                        {"uid", "rs-uid"},
                                                        {"controller", true},
                                                        {"blockOwnerDeletion", true}}));
  EXPECT_FALSE(pg["metadata"]["ownerReferences"][1].contains("controller"));
  EXPECT_EQ(pg["metadata"]["annotations"], json({{"volcano.sh/cooldown-time", "60s"},
                                                 {"volcano.sh/revocable-zone", "*"},
                                                 {"volcano.sh/jdb-min-available", "2"}}));
  EXPECT_EQ(pg["metadata"]["labels"], json({{"volcano.sh/preemptable", "true"}}));
  EXPECT_EQ(pg["spec"]["minMember"], 3);
  EXPECT_EQ(pg["spec"]["queue"], "q1");  // the pod's, never the owner's
  EXPECT_EQ(pg["spec"]["priorityClassName"], "high");
  EXPECT_EQ(pg["spec"]["minResources"]["nvidia.com/gpu"], "3");
  EXPECT_EQ(pg["spec"]["minResources"]["count/pods"], "3");
  EXPECT_FALSE(pg["spec"].contains("networkTopology"));
  EXPECT_EQ(pg["status"], json({{"phase", "Pending"}}));
}

TEST(DerivePodGroup, BarePodOwnsItsPodGroup) {
  json p = pod_json();
  p["metadata"].erase("ownerReferences");
  auto d = derive_podgroup(*pod(p), {}, ControllerOptions{}, kNow);
  EXPECT_EQ(d.object["metadata"]["ownerReferences"], json::array({{{"apiVersion", "v1"},
                                                                   {"kind", "Pod"},
                                                                   {"name", "web-1"},
                                                                   {"uid", "pod-uid"},
                                                                   {"controller", true},
                                                                   {"blockOwnerDeletion", true}}}));
  EXPECT_EQ(d.object["spec"]["minMember"], 1);
}

TEST(DerivePodGroup, WithoutInheritanceOwnerAnnotationsAreIgnored) {
  ControllerOptions options;
  options.inherit_owner_annotations = false;
  OwnerAnnotations owner = {{"scheduling.volcano.sh/group-min-member", "5"}, {"volcano.sh/x", "y"}};
  auto d = derive_podgroup(*pod(), owner, options, kNow);
  EXPECT_EQ(d.object["spec"]["minMember"], 1);
  EXPECT_FALSE(d.object["metadata"]["annotations"].contains("volcano.sh/x"));
}

TEST(DerivePodGroup, InvalidMinMemberFallsBackToOneWithAWarning) {
  for (const char* bad : {"-1", "three", "99999999999", ""}) {
    auto d = derive_podgroup(*pod(), {{"scheduling.volcano.sh/group-min-member", bad}},
                             ControllerOptions{}, kNow);
    EXPECT_EQ(d.object["spec"]["minMember"], 1) << bad;
    EXPECT_EQ(d.warnings.size(), 1u) << bad;
  }
}

TEST(DerivePodGroup, ZeroMinMemberIsAcceptedAndOmittedWithEmptyMinResources) {
  auto d = derive_podgroup(*pod(), {{"scheduling.volcano.sh/group-min-member", "+0"}},
                           ControllerOptions{}, kNow);
  EXPECT_TRUE(d.warnings.empty());
  EXPECT_FALSE(d.object["spec"].contains("minMember"));
  EXPECT_EQ(d.object["spec"]["minResources"], json::object());
}

TEST(DerivePodGroup, MaxUnavailableIsCopiedOnlyWithoutMinAvailable) {
  json p = pod_json();
  p["metadata"]["annotations"].erase("volcano.sh/jdb-min-available");
  auto d = derive_podgroup(*pod(p), {}, ControllerOptions{}, kNow);
  EXPECT_EQ(d.object["metadata"]["annotations"]["volcano.sh/jdb-max-unavailable"], "1");
  EXPECT_FALSE(d.object["metadata"]["annotations"].contains("volcano.sh/jdb-min-available"));
}

TEST(DerivePodGroup, NetworkTopologyFromPodAnnotations) {
  json p = pod_json();
  p["metadata"]["annotations"]["volcano.sh/network-topology-mode"] = "SOFT";
  p["metadata"]["annotations"]["volcano.sh/network-topology-highest-tier"] = "2";
  auto d = derive_podgroup(*pod(p), {}, ControllerOptions{}, kNow);
  EXPECT_EQ(d.object["spec"]["networkTopology"],
            json({{"mode", "soft"}, {"highestTierAllowed", 2}}));

  p["metadata"]["annotations"]["volcano.sh/network-topology-mode"] = "best";
  p["metadata"]["annotations"]["volcano.sh/network-topology-highest-tier"] = "x";
  d = derive_podgroup(*pod(p), {}, ControllerOptions{}, kNow);
  EXPECT_EQ(d.object["spec"]["networkTopology"], json({{"mode", "hard"}}));
  EXPECT_EQ(d.warnings.size(), 2u);
}

TEST(DerivePodGroup, NoQueueAnnotationLeavesQueueToTheCrdDefault) {
  json p = pod_json();
  p["metadata"].erase("annotations");
  p["metadata"].erase("labels");
  auto d = derive_podgroup(*pod(p), {}, ControllerOptions{}, kNow);
  EXPECT_FALSE(d.object["spec"].contains("queue"));
  EXPECT_FALSE(d.object["metadata"].contains("annotations"));
  EXPECT_FALSE(d.object["metadata"].contains("labels"));
}

}  // namespace
}  // namespace vc::controllers::podgroup
