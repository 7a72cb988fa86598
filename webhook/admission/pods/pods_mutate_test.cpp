#include <gtest/gtest.h>

#include "webhook/admission/pods/admit.h"
#include "webhook/admission/pods/pods_test_util.h"

namespace vc::webhook::pods {
namespace {

using namespace testing;  // NOLINT

constexpr const char* kGate = "scheduling.volcano.sh/queue-allocation-gate";

class PodsMutate : public ::testing::Test {
 protected:
  void use_config(const std::string& yaml) {
    auto parsed = PodAdmissionConfig::parse(yaml);
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    options_.pod_admission_config = std::make_shared<const PodAdmissionConfig>(*parsed);
  }
  AdmissionResponse admit(json object, std::string op = "CREATE") {
    return admit_pods_mutate(pod_request(std::move(object), std::move(op)), view_, options_);
  }
  StaticClusterView view_;
  AdmissionOptions options_;
};

TEST_F(PodsMutate, WrongResourceIsDenied) {
  EXPECT_DENIED(
      admit_pods_mutate(make_request({"apps", "v1", "pods"}, "CREATE", pod()), view_, options_),
      "expect resource to be { v1 pods}");
}

TEST_F(PodsMutate, OnlyCreateIsHandledWithVolcanosTrailingSpace) {
  EXPECT_DENIED(admit(pod(), "UPDATE"), "expect operation to be 'CREATE' ");
}

TEST_F(PodsMutate, DecodeErrorComesFirst) {
  EXPECT_DENIED(admit(pod({}, {{"tolerations", {{{"tolerationSeconds", "5"}}}}}), "UPDATE"),
                "json: cannot unmarshal string into Go struct field Toleration.spec.tolerations."
                "tolerationSeconds of type int64");
}

TEST_F(PodsMutate, WithoutAConfigurationNothingIsPatchedNotEvenTheGate) {
  options_.scheduling_gates_queue_admission = true;
  EXPECT_ALLOWED(admit(pod({{kGate, "true"}})));
}

TEST_F(PodsMutate, EmptyConfigurationGivesNoPatch) {
  use_config("# all comments\n");
  EXPECT_ALLOWED(admit(pod()));
}

TEST_F(PodsMutate, SchedulingGateIsAddedForOptedInPods) {
  use_config("");
  options_.scheduling_gates_queue_admission = true;
  EXPECT_PATCH(admit(pod({{kGate, "true"}}, {{"schedulerName", "other"}})), json::parse(R"([
      {"op":"add","path":"/spec/schedulingGates",
       "value":[{"name":"scheduling.volcano.sh/queue-allocation-gate"}]}])"));
  EXPECT_PATCH(admit(pod({{kGate, "true"}}, {{"schedulingGates", json::array()}})), json::parse(R"([
      {"op":"add","path":"/spec/schedulingGates/-",
       "value":{"name":"scheduling.volcano.sh/queue-allocation-gate"}}])"));
  EXPECT_ALLOWED(admit(pod({{kGate, "true"}}, {{"schedulingGates", {{{"name", kGate}}}}})));
  EXPECT_ALLOWED(admit(pod({{kGate, "yes"}})));
}

TEST_F(PodsMutate, SchedulingGateNeedsTheFeatureGate) {
  use_config("");
  EXPECT_ALLOWED(admit(pod({{kGate, "true"}})));
}

constexpr const char* kGroups = R"(
resourceGroups:
- resourceGroup: management
  object:
    key: namespace
    value: [mng]
  labels: {volcano.sh/nodetype: management, zone: z1}
  tolerations:
  - {key: role, operator: Equal, value: mng, effect: NoSchedule, tolerationseconds: 10}
  schedulerName: default-scheduler
  affinity: '{"NodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"k","operator":"Exists"}]}]}}}'
- resourceGroup: gpu
  object:
    key: annotation
    value: ["team: ml"]
  schedulerName: volcano
- resourceGroup: broken
  object: {key: namespace, value: [broken]}
  affinity: '{"nodeAffinity": 5}'
)";

TEST_F(PodsMutate, FirstMatchingGroupAppliesEverythingInOrder) {
  use_config(kGroups);
  json p = pod({{"team", "ml"}}, {{"nodeSelector", {{"zone", "mine"}, {"disk", "ssd"}}},
                                  {"tolerations", {{{"key", "own"}, {"operator", "Exists"}}}}});
  p["metadata"]["namespace"] = "mng";
  EXPECT_PATCH(admit(p), json::parse(R"([
      {"op":"add","path":"/spec/nodeSelector",
       "value":{"disk":"ssd","volcano.sh/nodetype":"management","zone":"z1"}},
      {"op":"add","path":"/spec/affinity","value":{"nodeAffinity":
        {"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":
          [{"matchExpressions":[{"key":"k","operator":"Exists"}]}]}}}},
      {"op":"add","path":"/spec/tolerations","value":[
        {"key":"own","operator":"Exists"},
        {"key":"role","operator":"Equal","value":"mng","effect":"NoSchedule","tolerationSeconds":10}]},
      {"op":"add","path":"/spec/schedulerName","value":"default-scheduler"}])"));
}

TEST_F(PodsMutate, PodAffinityIsNotReplaced) {
  use_config(kGroups);
  json p = pod({}, {{"affinity", {{"podAffinity", json::object()}}}});
  p["metadata"]["namespace"] = "mng";
  const auto response = admit(p);
  ASSERT_TRUE(response.allowed);
  for (const auto& op : response.patch) EXPECT_NE(op["path"], "/spec/affinity");
  EXPECT_EQ(response.patch.size(), 3u);
}

TEST_F(PodsMutate, RequestNamespaceIsUsedWhenThePodHasNone) {
  use_config(kGroups);
  json p = pod();
  p["metadata"].erase("namespace");
  auto request = pod_request(p);
  request.namespace_ = "mng";
  const auto response = admit_pods_mutate(request, view_, options_);
  EXPECT_EQ(response.patch.size(), 4u) << response.patch.dump();
}

TEST_F(PodsMutate, AnnotationGroupMatches) {
  use_config(kGroups);
  EXPECT_PATCH(admit(pod({{"team", "ml"}})),
               json::parse(R"([{"op":"add","path":"/spec/schedulerName","value":"volcano"}])"));
  EXPECT_ALLOWED(admit(pod({{"team", "web"}})));
}

TEST_F(PodsMutate, AffinityThatDoesNotDecodeIsSkippedWithAWarning) {
  use_config(kGroups);
  json p = pod();
  p["metadata"]["namespace"] = "broken";
  const auto response = admit(p);
  EXPECT_ALLOWED(response);
  EXPECT_EQ(response.warnings,
            std::vector<std::string>{
                "resource group \"broken\": affinity not applied: json: cannot unmarshal number "
                "into Go struct field Affinity.nodeAffinity of type v1.NodeAffinity"});
}

TEST_F(PodsMutate, AffinityThatIsNotJsonIsSkippedWithAWarning) {
  use_config("resourceGroups:\n- object: {key: namespace, value: [ns]}\n  affinity: '{oops'\n");
  const auto response = admit(pod());
  EXPECT_ALLOWED(response);
  EXPECT_EQ(response.warnings,
            std::vector<std::string>{"resource group \"\": affinity not applied: the text is not "
                                     "valid JSON"});
}

TEST_F(PodsMutate, GateComesBeforeGroupOperations) {
  use_config(kGroups);
  options_.scheduling_gates_queue_admission = true;
  const auto response = admit(pod({{"team", "ml"}, {kGate, "true"}}));
  ASSERT_EQ(response.patch.size(), 2u) << response.patch.dump();
  EXPECT_EQ(response.patch[0]["path"], "/spec/schedulingGates");
  EXPECT_EQ(response.patch[1]["path"], "/spec/schedulerName");
}

}  // namespace
}  // namespace vc::webhook::pods
