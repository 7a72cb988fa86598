// /queues/mutate (spec webhook.md §2.5).

#include "common/volcano/go_types.h"
#include "webhook/admission/request_checks.h"
#include "webhook/admission/scheduling/admit.h"
#include "webhook/admission/scheduling/queue_model.h"

namespace vc::webhook::scheduling {

AdmissionResponse admit_queues_mutate(const AdmissionRequest& request, const ClusterView& /*view*/,
                                      const AdmissionOptions& /*options*/) {
  if (auto e = check_and_decode(request, kQueuesResource, volcano::go_types::queue())) {
    return AdmissionResponse::deny(*e);
  }
  if (request.operation != "CREATE") {
    return AdmissionResponse::deny("invalid operation `" + request.operation +
                                   "`, expect operation to be `CREATE`");
  }
  const QueueModel queue = read_queue(request.object);
  json ops = json::array();
  // Hierarchies are rooted at "root"; the test is a plain prefix test, as Volcano's.
  const std::string hierarchy = queue.annotation(kHierarchyAnnotation);
  const std::string weights = queue.annotation(kHierarchyWeightsAnnotation);
  if (!hierarchy.empty() && !weights.empty() && hierarchy.rfind("root", 0) != 0) {
    ops.push_back({{"op", "add"},
                   {"path", "/metadata/annotations/volcano.sh~1hierarchy"},
                   {"value", "root/" + hierarchy}});
    ops.push_back({{"op", "add"},
                   {"path", "/metadata/annotations/volcano.sh~1hierarchy-weights"},
                   {"value", "1/" + weights}});
  }
  if (!queue.reclaimable) {
    ops.push_back({{"op", "add"}, {"path", "/spec/reclaimable"}, {"value", true}});
  }
  // An explicit 0 is replaced too: Go cannot tell it from an absent weight.
  if (queue.weight == 0) {
    ops.push_back({{"op", "add"}, {"path", "/spec/weight"}, {"value", 1}});
  }
  return AdmissionResponse::mutate(std::move(ops));
}

}  // namespace vc::webhook::scheduling
