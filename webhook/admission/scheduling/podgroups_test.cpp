#include <gtest/gtest.h>

#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/admit_test_util.h"

namespace vc::webhook::scheduling {
namespace {

using namespace testing;  // NOLINT

json podgroup(const std::string& queue, json extra_spec = json::object()) {
  json pg = {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
             {"kind", "PodGroup"},
             {"metadata", {{"name", "pg"}, {"namespace", "team-a"}}},
             {"spec", {{"minMember", 1}, {"queue", queue}}}};
  pg["spec"].update(extra_spec);
  return pg;
}

json namespace_object(json annotations = nullptr) {
  json ns = {{"metadata", {{"name", "team-a"}}}};
  if (!annotations.is_null()) ns["metadata"]["annotations"] = std::move(annotations);
  return ns;
}

class PodGroupsMutate : public ::testing::Test {
 protected:
  AdmissionResponse admit(json object, std::string op = "CREATE") {
    return admit_podgroups_mutate(make_request(kPodGroupsResource, op, std::move(object)), view_,
                                  options_);
  }
  StaticClusterView view_;
  AdmissionOptions options_;
};

TEST_F(PodGroupsMutate, WrongResourceIsDenied) {
  EXPECT_DENIED(admit_podgroups_mutate(make_request(kQueuesResource, "CREATE", podgroup("default")),
                                       view_, options_),
                "expect resource to be {scheduling.volcano.sh v1beta1 podgroups}");
}

TEST_F(PodGroupsMutate, DecodeErrorsComeBeforeTheOperationCheck) {
  EXPECT_DENIED(admit(podgroup("default", {{"minMember", "x"}}), "UPDATE"),
                "json: cannot unmarshal string into Go struct field PodGroupSpec.spec.minMember of "
                "type int32");
}

TEST_F(PodGroupsMutate, OnlyCreateIsHandled) {
  EXPECT_DENIED(admit(podgroup("default"), "UPDATE"),
                "invalid operation `UPDATE`, expect operation to be `CREATE`");
}

TEST_F(PodGroupsMutate, NonDefaultQueueIsLeftAlone) {
  view_.add_namespace(namespace_object({{"scheduling.volcano.sh/queue-name", "q1"}}));
  EXPECT_ALLOWED(admit(podgroup("research")));
  EXPECT_ALLOWED(admit(podgroup("")));
}

TEST_F(PodGroupsMutate, DefaultQueueTakesTheNamespaceAnnotation) {
  view_.add_namespace(namespace_object({{"scheduling.volcano.sh/queue-name", "q1"}}));
  EXPECT_PATCH(admit(podgroup("default")),
               json::parse(R"([{"op":"add","path":"/spec/queue","value":"q1"}])"));
}

TEST_F(PodGroupsMutate, EmptyAnnotationValueIsCopiedToo) {
  view_.add_namespace(namespace_object({{"scheduling.volcano.sh/queue-name", ""}}));
  EXPECT_PATCH(admit(podgroup("default")),
               json::parse(R"([{"op":"add","path":"/spec/queue","value":""}])"));
}

TEST_F(PodGroupsMutate, NamespaceWithoutAnnotationGivesNoPatch) {
  view_.add_namespace(namespace_object({{"other", "x"}}));
  const auto response = admit(podgroup("default"));
  EXPECT_ALLOWED(response);
  EXPECT_TRUE(response.warnings.empty());
}

TEST_F(PodGroupsMutate, NamespaceLookupFailureFailsOpenWithAWarning) {
  const auto response = admit(podgroup("default"));
  EXPECT_ALLOWED(response);
  ASSERT_EQ(response.warnings.size(), 1u);
  EXPECT_EQ(response.warnings[0],
            "could not read namespace \"team-a\" for its queue annotation, spec.queue stays "
            "\"default\": namespaces \"team-a\" not found");
}

TEST_F(PodGroupsMutate, OfflineViewSkipsTheLookup) {
  view_.set_online(false);
  const auto response = admit(podgroup("default"));
  EXPECT_ALLOWED(response);
  EXPECT_EQ(response.warnings,
            std::vector<std::string>{
                "skipped the queue annotation of namespace \"team-a\": no cluster access"});
}

class PodGroupsValidate : public ::testing::Test {
 protected:
  AdmissionResponse admit(json object, std::string op = "CREATE") {
    return admit_podgroups_validate(make_request(kPodGroupsResource, op, std::move(object)), view_,
                                    options_);
  }
  StaticClusterView view_;
  AdmissionOptions options_;
};

constexpr const char* kTopology =
    "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology "
    "simultaneously.";

TEST_F(PodGroupsValidate, WrongResourceIsDenied) {
  EXPECT_DENIED(admit_podgroups_validate(make_request({"", "v1", "pods"}, "CREATE", podgroup("")),
                                         view_, options_),
                "expect resource to be {scheduling.volcano.sh v1beta1 podgroups}");
}

TEST_F(PodGroupsValidate, OnlyCreateIsSupported) {
  EXPECT_DENIED(admit(podgroup(""), "UPDATE"), "unsupported operation UPDATE");
  EXPECT_DENIED(admit(podgroup(""), "DELETE"), "unsupported operation DELETE");
}

TEST_F(PodGroupsValidate, NoQueueAndOpenQueueAreAllowed) {
  EXPECT_ALLOWED(admit(podgroup("")));
  view_.add_queue(open_queue("q1"));
  EXPECT_ALLOWED(admit(podgroup("q1")));
}

TEST_F(PodGroupsValidate, UnknownQueueIsDenied) {
  EXPECT_DENIED(admit(podgroup("q1")),
                "unable to find queue: queue.scheduling.volcano.sh \"q1\" not found");
}

TEST_F(PodGroupsValidate, QueueThatIsNotOpenIsDeniedWithTrailingSpace) {
  view_.add_queue(queue_object("closed", {}, {{"state", "Closed"}}));
  view_.add_queue(queue_object("new"));
  EXPECT_DENIED(admit(podgroup("closed")),
                "can only submit PodGroup to queue with state `Open`, queue `closed` status is "
                "`Closed`. ");
  EXPECT_DENIED(admit(podgroup("new")),
                "can only submit PodGroup to queue with state `Open`, queue `new` status is ``. ");
}

TEST_F(PodGroupsValidate, NetworkTopologyMayNotSetBothTierFields) {
  EXPECT_DENIED(admit(podgroup("", {{"networkTopology",
                                     {{"highestTierAllowed", 2}, {"highestTierName", "rack"}}}})),
                kTopology);
  EXPECT_ALLOWED(admit(podgroup("", {{"networkTopology", {{"highestTierAllowed", 0}}}})));
  EXPECT_ALLOWED(admit(podgroup(
      "", {{"networkTopology", {{"highestTierAllowed", nullptr}, {"highestTierName", "rack"}}}})));
}

TEST_F(PodGroupsValidate, OnlyTheFirstBadSubGroupPolicyIsReported) {
  const json both = {{"highestTierAllowed", 1}, {"highestTierName", "rack"}};
  const json spec = {{"networkTopology", both},
                     {"subGroupPolicy",
                      {{{"name", "a"}, {"networkTopology", {{"highestTierAllowed", 1}}}},
                       {{"name", "b"}, {"networkTopology", both}},
                       {{"name", "c"}, {"networkTopology", both}}}}};
  EXPECT_DENIED(admit(podgroup("", spec)),
                std::string(kTopology) + " in subGroupPolicy 'b': " + kTopology);
}

TEST_F(PodGroupsValidate, QueueAndTopologyMessagesAreConcatenated) {
  view_.add_queue(queue_object("closed", {}, {{"state", "Closed"}}));
  const json spec = {{"networkTopology", {{"highestTierAllowed", 1}, {"highestTierName", "rack"}}}};
  EXPECT_DENIED(admit(podgroup("closed", spec)),
                "can only submit PodGroup to queue with state `Open`, queue `closed` status is "
                "`Closed`. " +
                    std::string(kTopology));
}

TEST_F(PodGroupsValidate, OfflineViewSkipsTheQueueCheck) {
  view_.set_online(false);
  const auto response = admit(podgroup("q1"));
  EXPECT_ALLOWED(response);
  EXPECT_EQ(response.warnings,
            std::vector<std::string>{"skipped the state check of queue \"q1\": no cluster access"});
}

}  // namespace
}  // namespace vc::webhook::scheduling
