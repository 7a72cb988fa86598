// The scheduling tables through the one checker (common/go/json_types, whose own tests cover the
// checker's rules): valid objects pass, the real struct names reach the messages, and the
// endpoints name the field of a bad quantity (docs/compat.md).
#include "common/volcano/go_types.h"

#include <gtest/gtest.h>

#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/admit_test_util.h"

namespace vc::webhook::scheduling {
namespace {

using nlohmann::json;

std::string queue_error(const char* text) {
  return go::check_go_types(json::parse(text), volcano::go_types::queue()).value_or("");
}

TEST(SchedulingSchemas, NullAndValidObjectsDecode) {
  EXPECT_EQ(go::check_go_types(json(), volcano::go_types::queue()), std::nullopt);
  EXPECT_EQ(queue_error(R"({"spec":{"weight":3,"reclaimable":null,"capability":{"cpu":"1"}},
                             "unknownField":[1,2]})"),
            "");
}

TEST(SchedulingSchemas, MessagesNameTheRealStructsAndTypes) {
  EXPECT_EQ(queue_error(R"({"spec":{"affinity":{"nodeGroupAffinity":
                             {"requiredDuringSchedulingIgnoredDuringExecution":"a"}}}})"),
            "json: cannot unmarshal string into Go struct field NodeGroupAffinity.spec.affinity."
            "nodeGroupAffinity.requiredDuringSchedulingIgnoredDuringExecution of type []string");
  EXPECT_EQ(go::check_go_types(json::parse(R"({"spec":{"minTaskMember":{"a":"x"}}})"),
                               volcano::go_types::podgroup()),
            "json: cannot unmarshal string into Go struct field PodGroupSpec.spec.minTaskMember of "
            "type int32");
  EXPECT_EQ(
      go::check_go_types(json::parse(R"({"spec":{"tier":1.5}})"), volcano::go_types::hyper_node()),
      "json: cannot unmarshal number 1.5 into Go struct field HyperNodeSpec.spec.tier of type "
      "int");
}

TEST(SchedulingSchemas, StatusesAreCheckedAsGoDecodesThem) {
  EXPECT_EQ(go::check_go_types(json::parse(R"({"status":{"conditions":[{"transitionID":5}]}})"),
                               volcano::go_types::podgroup()),
            "json: cannot unmarshal number into Go struct field "
            "PodGroupCondition.status.conditions.transitionID of type string");
  EXPECT_EQ(go::check_go_types(json::parse(R"({"status":{"nodeCount":"3"}})"),
                               volcano::go_types::hyper_node()),
            "json: cannot unmarshal string into Go struct field "
            "HyperNodeStatus.status.nodeCount of type int64");
}

TEST(SchedulingSchemas, TopLevelValueThatIsNotAnObject) {
  EXPECT_EQ(go::check_go_types(json::array({1}), volcano::go_types::queue()),
            "json: cannot unmarshal array into Go value of type v1beta1.Queue");
  EXPECT_EQ(go::check_go_types(json("x"), volcano::go_types::hyper_node()),
            "json: cannot unmarshal string into Go value of type v1alpha1.HyperNode");
}

TEST(SchedulingSchemas, EndpointsNameTheFieldOfABadQuantity) {
  StaticClusterView view;
  const auto request = testing::make_request(
      kQueuesResource, "CREATE", testing::queue_object("q", {{"capability", {{"cpu", "1 core"}}}}));
  EXPECT_DENIED(admit_queues_mutate(request, view, AdmissionOptions{}),
                "spec.capability[cpu]: quantities must match the regular expression "
                "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
}

}  // namespace
}  // namespace vc::webhook::scheduling
