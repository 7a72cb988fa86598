// /queues/validate step 2 (validateHierarchicalQueue) and step 3 (root protection).

#include <gtest/gtest.h>

#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/admit_test_util.h"

namespace vc::webhook::scheduling {
namespace {

using namespace testing;  // NOLINT

// Answers the first `good_lookups` lookups of `name` from the wrapped view, then fails them: a
// cache that loses a queue between two reads.
class FlakyView : public ClusterView {
 public:
  FlakyView(const ClusterView& inner, std::string name, int good_lookups)
      : inner_(inner), name_(std::move(name)), good_(good_lookups) {}
  api::Expected<QueuePtr> get_queue(std::string_view name) const override {
    if (name == name_ && good_-- <= 0) return api::Unexpected{"cache went away"};
    return inner_.get_queue(name);
  }
  std::vector<QueuePtr> list_queues() const override { return inner_.list_queues(); }
  std::vector<QueuePtr> child_queues(std::string_view parent) const override {
    return inner_.child_queues(parent);
  }
  api::Expected<json> get_namespace(std::string_view name) const override {
    return inner_.get_namespace(name);
  }

 private:
  const ClusterView& inner_;
  std::string name_;
  mutable int good_;
};

class QueueParent : public ::testing::Test {
 protected:
  AdmissionResponse create(json object, const ClusterView* view = nullptr) {
    return admit_queues_validate(make_request(kQueuesResource, "CREATE", std::move(object)),
                                 view ? *view : view_, options_);
  }
  AdmissionResponse update(json object, json old) {
    return admit_queues_validate(
        make_request(kQueuesResource, "UPDATE", std::move(object), std::move(old)), view_,
        options_);
  }
  static json child(const std::string& name, const std::string& parent, json spec = {}) {
    if (spec.is_null()) spec = json::object();
    spec["parent"] = parent;
    return open_queue(name, spec);
  }
  StaticClusterView view_;
  AdmissionOptions options_;
};

TEST_F(QueueParent, TopLevelQueuesNeedNoParent) {
  EXPECT_ALLOWED(create(child("q", "root")));
  EXPECT_ALLOWED(create(child("q", "")));
}

TEST_F(QueueParent, QueueCannotBeItsOwnParent) {
  EXPECT_DENIED(create(child("q", "q")), "queue q cannot use itself as parent");
}

TEST_F(QueueParent, DepthBelowRootIsLimited) {
  options_.max_queue_depth = 3;
  view_.add_queue(child("a", "root"));
  view_.add_queue(child("b", "a"));
  view_.add_queue(child("c", "b"));
  EXPECT_ALLOWED(create(child("q", "b")));
  EXPECT_DENIED(create(child("q", "c")), "queue q exceeds the maximum allowed depth of 3");
}

TEST_F(QueueParent, ParentCycleStopsAtTheDepthLimit) {
  options_.max_queue_depth = 1000000;
  view_.add_queue(child("a", "b"));
  view_.add_queue(child("b", "a"));
  EXPECT_DENIED(create(child("q", "a")), "queue q exceeds the maximum allowed depth of 1000000");
}

TEST_F(QueueParent, MissingAncestorIsDenied) {
  view_.add_queue(child("a", "ghost"));
  EXPECT_DENIED(create(child("q", "a")),
                "failed to get parent queue ghost of queue q: queue.scheduling.volcano.sh "
                "\"ghost\" not found");
  EXPECT_DENIED(create(child("q", "nope")),
                "failed to get parent queue nope of queue q: queue.scheduling.volcano.sh \"nope\" "
                "not found");
}

TEST_F(QueueParent, ParentLostBetweenLookupsIsDenied) {
  view_.add_queue(child("a", "root"));
  FlakyView flaky(view_, "a", 1);
  EXPECT_DENIED(create(child("q", "a"), &flaky),
                "failed to get parent queue of queue q: cache went away");
}

TEST_F(QueueParent, ParentRunningPodsCannotTakeItsFirstChild) {
  view_.add_queue(queue_object("p", {}, {{"state", "Open"}, {"allocated", {{"pods", "3"}}}}));
  EXPECT_DENIED(create(child("q", "p")),
                "queue p cannot be the parent queue of queue q because it has allocated Pods: 3");
  view_.add_queue(child("existing", "p"));
  EXPECT_ALLOWED(create(child("q", "p")));
}

TEST_F(QueueParent, ParentWithZeroAllocatedPodsMayTakeAChild) {
  view_.add_queue(queue_object("p", {}, {{"state", "Open"}, {"allocated", {{"pods", "0"}}}}));
  EXPECT_ALLOWED(create(child("q", "p")));
}

TEST_F(QueueParent, ParentCheckRunsOnUpdateOnlyWhenTheParentChanges) {
  view_.add_queue(queue_object("p", {}, {{"state", "Open"}, {"allocated", {{"pods", "1"}}}}));
  EXPECT_ALLOWED(update(child("q", "p", {{"weight", 2}}), child("q", "p")));
  EXPECT_DENIED(update(child("q", "p"), child("q", "root")),
                "queue p cannot be the parent queue of queue q because it has allocated Pods: 1");
}

TEST_F(QueueParent, OldObjectIsDecodedOnUpdate) {
  EXPECT_DENIED(update(child("q", "root"), queue_object("q", {{"parent", 5}})),
                "json: cannot unmarshal number into Go struct field QueueSpec.spec.parent of type "
                "string");
}

TEST_F(QueueParent, RootResourcesCannotBeModified) {
  const json old = open_queue("root", {{"capability", {{"cpu", "100"}}}});
  EXPECT_DENIED(update(open_queue("root", {{"capability", {{"cpu", "200"}}}}), old),
                "root queue's resource attributes (capability, deserved, guarantee) cannot be "
                "modified");
  EXPECT_DENIED(update(open_queue("root", {{"capability", {{"cpu", "100"}}},
                                           {"guarantee", {{"resource", {{"cpu", "1"}}}}},
                                           {"deserved", {{"cpu", "1"}}}}),
                       old),
                "root queue's resource attributes (capability, deserved, guarantee) cannot be "
                "modified");
  // Quantities compare by value and other fields may change.
  EXPECT_ALLOWED(
      update(open_queue("root", {{"capability", {{"cpu", "100000m"}}}, {"weight", 5}}), old));
}

TEST_F(QueueParent, RootProtectionCanBeTurnedOff) {
  options_.enable_root_queue_protection = false;
  EXPECT_ALLOWED(update(open_queue("root", {{"capability", {{"cpu", "1"}}}}), open_queue("root")));
}

TEST_F(QueueParent, OfflineViewSkipsTheParentChecks) {
  view_.set_online(false);
  const auto response = create(child("q", "somewhere"));
  EXPECT_ALLOWED(response);
  EXPECT_EQ(response.warnings,
            (std::vector<std::string>{
                "skipped the parent queue checks: no cluster access",
                "skipped the hierarchical queue resource checks: no cluster access"}));
}

}  // namespace
}  // namespace vc::webhook::scheduling
