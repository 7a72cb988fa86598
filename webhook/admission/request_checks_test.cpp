#include "webhook/admission/request_checks.h"

#include <gtest/gtest.h>

namespace vc::webhook {
namespace {

const GroupVersionResource kQueues{"scheduling.volcano.sh", "v1beta1", "queues"};

AdmissionRequest request_for(GroupVersionResource resource, json object = nullptr) {
  AdmissionRequest r;
  r.resource = std::move(resource);
  r.object = std::move(object);
  return r;
}

TEST(RequestChecks, ResourceCheckMessageShowsTheGoStruct) {
  EXPECT_EQ(expect_resource(request_for({"", "v1", "pods"}), kQueues),
            "expect resource to be {scheduling.volcano.sh v1beta1 queues}");
  EXPECT_EQ(expect_resource(request_for(kQueues), kQueues), std::nullopt);
}

TEST(RequestChecks, CheckAndDecodeNamesTheFieldOfABadQuantity) {
  go::GoTypes types;
  const go::GoType* spec = types.structure(
      "v1beta1.QueueSpec",
      {{"capability", types.map(types.scalar(go::GoKind::Quantity, "resource.Quantity"))}});
  const go::GoType* queue = types.structure("v1beta1.Queue", {{"spec", spec}});
  EXPECT_EQ(check_and_decode(request_for({"", "v1", "pods"}), kQueues, *queue),
            "expect resource to be {scheduling.volcano.sh v1beta1 queues}");
  EXPECT_EQ(check_and_decode(request_for(kQueues), kQueues, *queue), std::nullopt);
  EXPECT_EQ(
      check_and_decode(request_for(kQueues, json::parse(R"({"spec":{"capability":{"cpu":"x"}}})")),
                       kQueues, *queue),
      "spec.capability[cpu]: quantities must match the regular expression "
      "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
}

}  // namespace
}  // namespace vc::webhook
