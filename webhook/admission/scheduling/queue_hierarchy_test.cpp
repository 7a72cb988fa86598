// /queues/validate step 4 (validateHierarchicalQueueResources).

#include <gtest/gtest.h>

#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/admit_test_util.h"

namespace vc::webhook::scheduling {
namespace {

using namespace testing;  // NOLINT

json resources(const char* text) {
  return json::parse(text);
}

json spec(const std::string& parent, const char* capability = "{}", const char* deserved = "{}",
          const char* guarantee = "{}") {
  return {{"parent", parent},
          {"capability", resources(capability)},
          {"deserved", resources(deserved)},
          {"guarantee", {{"resource", resources(guarantee)}}}};
}

class QueueHierarchy : public ::testing::Test {
 protected:
  void SetUp() override {
    // p: capability cpu 10 / memory 2Gi / 8 GPUs, deserved cpu 8, guarantee cpu 4.
    view_.add_queue(
        open_queue("p", spec("root", R"({"cpu":"10","memory":"2Gi","nvidia.com/gpu":"8"})",
                             R"({"cpu":"8","memory":"2Gi"})", R"({"cpu":"4"})")));
  }
  AdmissionResponse create(const std::string& name, json queue_spec) {
    return admit_queues_validate(
        make_request(kQueuesResource, "CREATE", open_queue(name, std::move(queue_spec))), view_,
        options_);
  }
  AdmissionResponse update(const std::string& name, json new_spec, json old_spec) {
    return admit_queues_validate(
        make_request(kQueuesResource, "UPDATE", open_queue(name, std::move(new_spec)),
                     open_queue(name, std::move(old_spec))),
        view_, options_);
  }
  StaticClusterView view_;
  AdmissionOptions options_;
};

TEST_F(QueueHierarchy, ChildWithinItsParentIsAllowed) {
  EXPECT_ALLOWED(create("q", spec("p", R"({"cpu":"10"})", R"({"cpu":"2"})", R"({"cpu":"1"})")));
}

TEST_F(QueueHierarchy, CapabilityMayNotExceedTheNearestAncestorThatSetsIt) {
  EXPECT_DENIED(create("q", spec("p", R"({"cpu":"20"})")),
                "queue q capability[cpu]=20 exceeds its ancestor's capability=10");
  EXPECT_DENIED(create("q", spec("p", R"({"memory":"4Gi"})")),
                "queue q capability[memory]=4Gi exceeds its ancestor's capability=2Gi");
  EXPECT_DENIED(create("q", spec("p", R"({"nvidia.com/gpu":"16"})")),
                "queue q capability[nvidia.com/gpu]=16000.00 exceeds its ancestor's "
                "capability=8000.00");
  // The middle queue sets no cpu capability, so the grandparent's applies.
  view_.add_queue(open_queue("mid", spec("p", R"({"memory":"1Gi"})")));
  EXPECT_DENIED(create("q", spec("mid", R"({"cpu":"10500m"})")),
                "queue q capability[cpu]=10500m exceeds its ancestor's capability=10");
}

TEST_F(QueueHierarchy, SiblingsGuaranteeSumMayNotExceedTheParents) {
  view_.add_queue(open_queue("s1", spec("p", "{}", R"({"cpu":"3"})", R"({"cpu":"3"})")));
  EXPECT_DENIED(create("q", spec("p", "{}", R"({"cpu":"2"})", R"({"cpu":"2"})")),
                "parent queue p validation failed: sum of children's guarantee (cpu 5000.00, "
                "memory 0.00) exceeds parent's guarantee limit (cpu 4000.00, memory 0.00)");
}

TEST_F(QueueHierarchy, SiblingsDeservedSumMayNotExceedTheParents) {
  view_.add_queue(open_queue("s1", spec("p", "{}", R"({"cpu":"6"})")));
  EXPECT_DENIED(create("q", spec("p", "{}", R"({"cpu":"3"})")),
                "parent queue p validation failed: sum of children's deserved (cpu 9000.00, memory "
                "0.00) exceeds parent's deserved limit (cpu 8000.00, memory 2147483648.00)");
}

TEST_F(QueueHierarchy, SiblingsAreSummedInNameOrderAndTheQueueItselfOnlyOnce) {
  view_.add_queue(open_queue("s2", spec("p", "{}", R"({"cpu":"5"})")));
  view_.add_queue(open_queue("s1", spec("p", "{}", R"({"cpu":"4"})")));
  EXPECT_DENIED(create("q", spec("p")),
                "parent queue p validation failed: sum of children's deserved (cpu 9000.00, memory "
                "0.00) exceeds parent's deserved limit (cpu 8000.00, memory 2147483648.00)");
  // On update the cached copy of the queue is not counted twice.
  view_.add_queue(open_queue("q", spec("p", "{}", R"({"cpu":"1"})")));
  EXPECT_DENIED(update("q", spec("p", "{}", R"({"cpu":"2"})"), spec("p", "{}", R"({"cpu":"1"})")),
                "parent queue p validation failed: sum of children's deserved (cpu 9000.00, memory "
                "0.00) exceeds parent's deserved limit (cpu 8000.00, memory 2147483648.00)");
}

TEST_F(QueueHierarchy, ParentWithoutGuaranteeRejectsAChildWithOne) {
  view_.add_queue(open_queue("bare", spec("root")));
  EXPECT_DENIED(create("q", spec("bare", "{}", R"({"cpu":"1"})", R"({"cpu":"1"})")),
                "parent queue bare validation failed: sum of children's guarantee (cpu 1000.00, "
                "memory 0.00) exceeds parent's guarantee limit (cpu 0.00, memory 0.00)");
}

TEST_F(QueueHierarchy, ScalarTheParentLacksFailsEvenAtZero) {
  EXPECT_DENIED(create("q", spec("p", "{}", R"({"cpu":"1","pods":"0"})")),
                "parent queue p validation failed: sum of children's deserved (cpu 1000.00, memory "
                "0.00, pods 0.00) exceeds parent's deserved limit (cpu 8000.00, memory "
                "2147483648.00)");
}

TEST_F(QueueHierarchy, MissingParentOnUpdateIsDenied) {
  EXPECT_DENIED(update("q", spec("gone", R"({"cpu":"2"})"), spec("gone", R"({"cpu":"1"})")),
                "parent queue gone not found: queue.scheduling.volcano.sh \"gone\" not found");
}

TEST_F(QueueHierarchy, CapabilityMayNotDropBelowADescendants) {
  view_.add_queue(open_queue("c1", spec("p", R"({"cpu":"6"})")));
  view_.add_queue(open_queue("c2", spec("p")));
  view_.add_queue(open_queue("g", spec("c2", R"({"cpu":"7"})")));
  const json old = spec("root", R"({"cpu":"10"})", R"({"cpu":"8"})", R"({"cpu":"4"})");
  EXPECT_DENIED(
      update("p", spec("root", R"({"cpu":"6500m"})", R"({"cpu":"6"})", R"({"cpu":"4"})"), old),
      "queue p capability[cpu]=6500m is smaller than its descendants' max capability=7");
}

TEST_F(QueueHierarchy, ChildrenSumsMayNotExceedTheQueuesOwn) {
  view_.add_queue(open_queue("c1", spec("p", "{}", R"({"cpu":"3"})", R"({"cpu":"3"})")));
  view_.add_queue(open_queue("c2", spec("p", "{}", R"({"cpu":"3"})", R"({"cpu":"1"})")));
  const json old = spec("root", R"({"cpu":"10"})", R"({"cpu":"8"})", R"({"cpu":"4"})");
  EXPECT_DENIED(
      update("p", spec("root", R"({"cpu":"10"})", R"({"cpu":"8"})", R"({"cpu":"3"})"), old),
      "queue p validation failed: sum of children's guarantee (cpu 4000.00, memory 0.00) "
      "exceeds parent's guarantee limit (cpu 3000.00, memory 0.00)");
  EXPECT_DENIED(
      update("p", spec("root", R"({"cpu":"10"})", R"({"cpu":"5"})", R"({"cpu":"4"})"), old),
      "queue p validation failed: sum of children's deserved (cpu 6000.00, memory 0.00) "
      "exceeds parent's deserved limit (cpu 5000.00, memory 0.00)");
}

TEST_F(QueueHierarchy, UpdateWithoutPlaceOrResourceChangesSkipsTheChecks) {
  // The siblings already exceed the parent; an unrelated update still goes through.
  view_.add_queue(open_queue("s1", spec("p", "{}", R"({"cpu":"9"})")));
  json new_spec = spec("p", "{}", R"({"cpu":"1"})");
  new_spec["weight"] = 7;
  EXPECT_ALLOWED(update("q", new_spec, spec("p", "{}", R"({"cpu":"1000m"})")));
}

TEST_F(QueueHierarchy, RootQueueIsNeverChecked) {
  options_.enable_root_queue_protection = false;
  view_.add_queue(open_queue("big", spec("root", R"({"cpu":"1000"})")));
  EXPECT_ALLOWED(update("root", spec("", R"({"cpu":"1"})"), spec("")));
}

TEST_F(QueueHierarchy, CyclesInTheCacheDoNotHang) {
  // a and b name each other as parents (a broken cache); Volcano would walk them forever.
  view_.add_queue(open_queue("a", spec("b", R"({"memory":"1Gi"})")));
  view_.add_queue(open_queue("b", spec("a")));
  EXPECT_ALLOWED(update("a", spec("b", R"({"cpu":"1"})"), spec("b", R"({"memory":"1Gi"})")));
}

}  // namespace
}  // namespace vc::webhook::scheduling
