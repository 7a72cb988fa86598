#include <gtest/gtest.h>

#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/admit_test_util.h"

namespace vc::webhook::scheduling {
namespace {

using namespace testing;  // NOLINT

class QueuesMutate : public ::testing::Test {
 protected:
  AdmissionResponse admit(json object, std::string op = "CREATE") {
    return admit_queues_mutate(make_request(kQueuesResource, op, std::move(object)), view_,
                               options_);
  }
  StaticClusterView view_;
  AdmissionOptions options_;
};

TEST_F(QueuesMutate, WrongResourceIsDenied) {
  EXPECT_DENIED(admit_queues_mutate(make_request(kPodGroupsResource, "CREATE", queue_object("q")),
                                    view_, options_),
                "expect resource to be {scheduling.volcano.sh v1beta1 queues}");
}

TEST_F(QueuesMutate, OnlyCreateIsHandled) {
  EXPECT_DENIED(admit(queue_object("q"), "UPDATE"),
                "invalid operation `UPDATE`, expect operation to be `CREATE`");
}

TEST_F(QueuesMutate, DecodeErrorNamesTheField) {
  EXPECT_DENIED(admit(queue_object("q", {{"weight", "heavy"}})),
                "json: cannot unmarshal string into Go struct field QueueSpec.spec.weight of type "
                "int32");
}

TEST_F(QueuesMutate, DefaultsReclaimableAndWeight) {
  EXPECT_PATCH(admit(queue_object("q")), json::parse(R"([
      {"op":"add","path":"/spec/reclaimable","value":true},
      {"op":"add","path":"/spec/weight","value":1}])"));
}

TEST_F(QueuesMutate, ExplicitZeroWeightIsReplaced) {
  EXPECT_PATCH(admit(queue_object("q", {{"weight", 0}, {"reclaimable", false}})),
               json::parse(R"([{"op":"add","path":"/spec/weight","value":1}])"));
}

TEST_F(QueuesMutate, NothingToChangeGivesNoPatch) {
  EXPECT_ALLOWED(admit(queue_object("q", {{"weight", 3}, {"reclaimable", false}})));
}

TEST_F(QueuesMutate, HierarchyAnnotationsAreRootedAtRoot) {
  const json annotations = {{"volcano.sh/hierarchy", "sci/dev"},
                            {"volcano.sh/hierarchy-weights", "2/3"}};
  EXPECT_PATCH(admit(queue_object("q", {{"weight", 1}, {"reclaimable", true}}, {}, annotations)),
               json::parse(R"([
      {"op":"add","path":"/metadata/annotations/volcano.sh~1hierarchy","value":"root/sci/dev"},
      {"op":"add","path":"/metadata/annotations/volcano.sh~1hierarchy-weights","value":"1/2/3"}
  ])"));
}

TEST_F(QueuesMutate, HierarchyStartingWithRootOrMissingWeightsIsKept) {
  const json spec = {{"weight", 1}, {"reclaimable", true}};
  // A plain prefix test: "rootless" counts as rooted.
  EXPECT_ALLOWED(admit(queue_object(
      "q", spec, {},
      {{"volcano.sh/hierarchy", "rootless/a"}, {"volcano.sh/hierarchy-weights", "1/1"}})));
  EXPECT_ALLOWED(admit(queue_object("q", spec, {}, {{"volcano.sh/hierarchy", "a/b"}})));
}

}  // namespace
}  // namespace vc::webhook::scheduling
