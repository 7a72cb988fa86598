// /queues/validate step 1 (validateQueue): resource quantities, state, hierarchy annotations.

#include <gtest/gtest.h>

#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/admit_test_util.h"

namespace vc::webhook::scheduling {
namespace {

using namespace testing;  // NOLINT

class QueueFields : public ::testing::Test {
 protected:
  AdmissionResponse create(json object) {
    return admit_queues_validate(make_request(kQueuesResource, "CREATE", std::move(object)), view_,
                                 options_);
  }
  AdmissionResponse create_with_spec(json spec) {
    return create(queue_object("q", std::move(spec)));
  }
  StaticClusterView view_;
  AdmissionOptions options_;
};

TEST_F(QueueFields, WrongResourceIsDenied) {
  EXPECT_DENIED(admit_queues_validate(make_request({"", "v1", "pods"}, "CREATE", queue_object("q")),
                                      view_, options_),
                "expect resource to be {scheduling.volcano.sh v1beta1 queues}");
}

TEST_F(QueueFields, PlainQueueIsAllowed) {
  EXPECT_ALLOWED(create_with_spec({{"weight", 1},
                                   {"capability", {{"cpu", "8"}, {"memory", "16Gi"}}},
                                   {"deserved", {{"cpu", "4"}}},
                                   {"guarantee", {{"resource", {{"cpu", "2"}}}}}}));
}

TEST_F(QueueFields, NegativeQuantitiesAreDenied) {
  EXPECT_DENIED(create_with_spec({{"capability", {{"cpu", "-1"}}}}),
                "requestBody.spec.capability.cpu: Invalid value: \"-1\": must be greater than or "
                "equal to 0");
}

TEST_F(QueueFields, IntegerResourcesMustBeWholeNumbers) {
  EXPECT_DENIED(create_with_spec({{"capability", {{"pods", "1500m"}}}}),
                "requestBody.spec.capability.pods: Invalid value: \"1500m\": must be an integer");
  EXPECT_DENIED(create_with_spec({{"deserved", {{"nvidia.com/gpu", "-500m"}}}}),
                "[requestBody.spec.deserved.nvidia.com/gpu: Invalid value: \"-500m\": must be "
                "greater than or equal to 0, requestBody.spec.deserved.nvidia.com/gpu: Invalid "
                "value: \"-500m\": must be an integer]");
  EXPECT_ALLOWED(create_with_spec({{"capability", {{"cpu", "1500m"}}}}));
}

TEST_F(QueueFields, GuaranteeNeedsADeservedEntryOfAtLeastTheSameAmount) {
  EXPECT_DENIED(create_with_spec({{"guarantee", {{"resource", {{"cpu", "2"}}}}}}),
                "requestBody.spec.deserved.cpu: Invalid value: \"<nil>\": deserved[cpu] must be >= "
                "guarantee[cpu]=2");
  EXPECT_DENIED(create_with_spec({{"deserved", {{"cpu", "1000m"}}},
                                  {"guarantee", {{"resource", {{"cpu", "2"}}}}}}),
                "requestBody.spec.deserved.cpu: Invalid value: \"1\": deserved[cpu]=1 must be >= "
                "guarantee[cpu]=2");
  EXPECT_DENIED(create_with_spec({{"guarantee", {{"resource", {{"cpu", "-1"}}}}}}),
                "[requestBody.spec.guarantee.resource.cpu: Invalid value: \"-1\": must be greater "
                "than or equal to 0, requestBody.spec.deserved.cpu: Invalid value: \"<nil>\": "
                "deserved[cpu] must be >= guarantee[cpu]=-1]");
}

TEST_F(QueueFields, DeservedMayNotExceedCapability) {
  EXPECT_DENIED(create_with_spec({{"capability", {{"memory", "1Gi"}}},
                                  {"deserved", {{"memory", "2Gi"}, {"cpu", "100"}}}}),
                "requestBody.spec.deserved.memory: Invalid value: \"2Gi\": deserved[memory]=2Gi "
                "must be <= capability[memory]=1Gi");
}

TEST_F(QueueFields, ErrorsAreAggregatedInVolcanoGroupOrderWithSortedNames) {
  const json spec = {{"capability", {{"memory", "-1"}, {"cpu", "-2"}, {"pods", "1"}}},
                     {"deserved", {{"pods", "2"}}},
                     {"guarantee", {{"resource", {{"cpu", "1"}}}}}};
  EXPECT_DENIED(
      create(queue_object("q", spec, {{"state", "Broken"}})),
      "[requestBody.spec.capability.cpu: Invalid value: \"-2\": must be greater than or equal to "
      "0, requestBody.spec.capability.memory: Invalid value: \"-1\": must be greater than or "
      "equal to 0, requestBody.spec.deserved.cpu: Invalid value: \"<nil>\": deserved[cpu] must "
      "be >= guarantee[cpu]=1, requestBody.spec.deserved.pods: Invalid value: \"2\": "
      "deserved[pods]=2 must be <= capability[pods]=1, requestBody.spec.state: Invalid value: "
      "\"Broken\": queue state must be in [Open Closed]]");
}

TEST_F(QueueFields, StateMustBeOpenOrClosed) {
  EXPECT_DENIED(create(queue_object("q", {}, {{"state", "Unknown"}})),
                "requestBody.spec.state: Invalid value: \"Unknown\": queue state must be in [Open "
                "Closed]");
  EXPECT_ALLOWED(create(queue_object("q", {}, {{"state", "Closed"}})));
}

json hierarchy(const std::string& h, const std::string& w) {
  return {{"volcano.sh/hierarchy", h}, {"volcano.sh/hierarchy-weights", w}};
}

TEST_F(QueueFields, HierarchyNeedsOneWeightPerLevel) {
  EXPECT_DENIED(create(queue_object("q", {}, {}, hierarchy("root/a", "1"))),
                "requestBody.metadata.annotations: Invalid value: \"root/a\": volcano.sh/hierarchy "
                "must have the same length with volcano.sh/hierarchy-weights");
  EXPECT_DENIED(create(queue_object("q", {}, {}, {{"volcano.sh/hierarchy-weights", "1/2"}})),
                "requestBody.metadata.annotations: Invalid value: \"\": volcano.sh/hierarchy must "
                "have the same length with volcano.sh/hierarchy-weights");
}

TEST_F(QueueFields, HierarchyWeightsMustBePositiveNumbers) {
  EXPECT_DENIED(create(queue_object("q", {}, {}, hierarchy("root/a", "1/x"))),
                "requestBody.metadata.annotations: Invalid value: \"1/x\": x in the 1/x is invalid "
                "number: strconv.ParseFloat: parsing \"x\": invalid syntax");
  EXPECT_DENIED(
      create(queue_object("q", {}, {}, hierarchy("root/a", "1/1e999"))),
      "requestBody.metadata.annotations: Invalid value: \"1/1e999\": 1e999 in the 1/1e999 "
      "is invalid number: strconv.ParseFloat: parsing \"1e999\": value out of range");
  EXPECT_DENIED(create(queue_object("q", {}, {}, hierarchy("root/a", "1/0"))),
                "requestBody.metadata.annotations: Invalid value: \"1/0\": 0 in the 1/0 must be "
                "larger than 0");
  EXPECT_DENIED(create(queue_object("q", {}, {}, hierarchy("root/a", "-Inf/1"))),
                "requestBody.metadata.annotations: Invalid value: \"-Inf/1\": -Inf in the -Inf/1 "
                "must be larger than 0");
  EXPECT_ALLOWED(create(queue_object("q", {}, {}, hierarchy("root/a", "NaN/0x1p-2"))));
}

TEST_F(QueueFields, HierarchyMayNotSitAboveAnotherQueue) {
  view_.add_queue(queue_object("q2", {}, {}, hierarchy("root/a/b", "1/1/1")));
  view_.add_queue(queue_object("q3", {}, {}, hierarchy("root/ab", "1/1")));
  EXPECT_DENIED(
      create(queue_object("q", {}, {}, hierarchy("root/a", "1/1"))),
      "requestBody.metadata.annotations: Invalid value: \"root/a\": root/a is not allowed "
      "to be in the sub path of root/a/b of queue q2");
  // Whole path segments only, and the queue itself does not count.
  EXPECT_ALLOWED(create(queue_object("q", {}, {}, hierarchy("root/a/b/c", "1/1/1/1"))));
  EXPECT_ALLOWED(create(queue_object("q2", {}, {}, hierarchy("root/a", "1/1"))));
}

TEST_F(QueueFields, OfflineViewSkipsTheSubPathCheck) {
  view_.add_queue(queue_object("q2", {}, {}, hierarchy("root/a/b", "1/1/1")));
  view_.set_online(false);
  const auto response = create(queue_object("q", {}, {}, hierarchy("root/a", "1/1")));
  EXPECT_ALLOWED(response);
  EXPECT_EQ(response.warnings,
            (std::vector<std::string>{
                "skipped the volcano.sh/hierarchy sub-path check: no cluster access",
                "skipped the hierarchical queue resource checks: no cluster access"}));
}

}  // namespace
}  // namespace vc::webhook::scheduling
