// /queues/validate DELETE (validateQueueDeleting) and the operation check.

#include <gtest/gtest.h>

#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/admit_test_util.h"

namespace vc::webhook::scheduling {
namespace {

using namespace testing;  // NOLINT

class QueueDelete : public ::testing::Test {
 protected:
  AdmissionResponse remove(const std::string& name) {
    // DELETE requests carry no object.
    return admit_queues_validate(make_request(kQueuesResource, "DELETE", nullptr, nullptr, name),
                                 view_, options_);
  }
  StaticClusterView view_;
  AdmissionOptions options_;
};

TEST_F(QueueDelete, DefaultAndRootQueuesStay) {
  view_.add_queue(open_queue("default"));
  view_.add_queue(open_queue("root"));
  EXPECT_DENIED(remove("default"), "`default` queue can not be deleted");
  EXPECT_DENIED(remove("root"), "`root` queue can not be deleted");
}

TEST_F(QueueDelete, QueueUnknownToTheCacheIsDenied) {
  EXPECT_DENIED(remove("q"), "queue.scheduling.volcano.sh \"q\" not found");
}

TEST_F(QueueDelete, LeafQueueIsDeleted) {
  view_.add_queue(queue_object("q", {}, {{"state", "Closed"}, {"allocated", {{"pods", "2"}}}}));
  EXPECT_ALLOWED(remove("q"));
}

TEST_F(QueueDelete, AllocatedPodsBlockDeletionWhenChecked) {
  options_.enable_queue_allocated_pods_check = true;
  view_.add_queue(queue_object("q", {}, {{"allocated", {{"pods", "2"}, {"cpu", "1"}}}}));
  view_.add_queue(queue_object("r", {}, {{"allocated", {{"pods", "500m"}}}}));
  view_.add_queue(queue_object("idle", {}, {{"allocated", {{"pods", "0"}}}}));
  EXPECT_DENIED(remove("q"), "queue q cannot be deleted because it has allocated Pods: 2");
  EXPECT_DENIED(remove("r"), "queue r cannot be deleted because it has allocated Pods: 1");
  EXPECT_ALLOWED(remove("idle"));
}

TEST_F(QueueDelete, QueueWithChildrenIsDenied) {
  view_.add_queue(open_queue("p"));
  view_.add_queue(open_queue("b", {{"parent", "p"}}));
  view_.add_queue(open_queue("a", {{"parent", "p"}}));
  EXPECT_DENIED(remove("p"), "queue p can not be deleted because it has 2 child queues: a, b");
}

TEST_F(QueueDelete, OtherOperationsAreDenied) {
  EXPECT_DENIED(
      admit_queues_validate(make_request(kQueuesResource, "CONNECT", nullptr), view_, options_),
      "invalid operation `CONNECT`, expect operation to be `CREATE`, `UPDATE` or "
      "`DELETE`");
}

TEST_F(QueueDelete, OfflineViewChecksOnlyTheNames) {
  view_.set_online(false);
  EXPECT_DENIED(remove("root"), "`root` queue can not be deleted");
  const auto response = remove("q");
  EXPECT_ALLOWED(response);
  EXPECT_EQ(response.warnings,
            std::vector<std::string>{"skipped the queue deletion checks: no cluster access"});
}

}  // namespace
}  // namespace vc::webhook::scheduling
