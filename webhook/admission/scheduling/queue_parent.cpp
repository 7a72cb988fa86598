// validateHierarchicalQueue and validateQueueDeleting of /queues/validate
// (spec webhook.md §2.6 step 2 and DELETE).

#include <set>

#include "webhook/admission/scheduling/offline.h"
#include "webhook/admission/scheduling/queue_rules.h"

namespace vc::webhook::scheduling {
namespace {

bool is_top(const std::string& parent) {
  return parent.empty() || parent == "root";
}

// The queue's depth below root may not exceed max_depth (the root is not counted). Volcano walks
// the parents; on a cycle it would walk until the limit, so a revisit reports the limit at once.
std::string check_depth(const QueueModel& queue, const ClusterView& view, int max_depth) {
  const std::string too_deep =
      "queue " + queue.name + " exceeds the maximum allowed depth of " + std::to_string(max_depth);
  int depth = 1;
  std::set<std::string> seen;
  for (std::string p = queue.parent; !is_top(p);) {
    if (++depth > max_depth || !seen.insert(p).second) return too_deep;
    auto parent = view.get_queue(p);
    if (!parent.ok()) {
      return "failed to get parent queue " + p + " of queue " + queue.name + ": " + parent.error();
    }
    p = read_queue(*parent).parent;
  }
  return {};
}

}  // namespace

std::string validate_queue_parent(const QueueModel& queue, const ClusterView& view,
                                  const AdmissionOptions& options,
                                  std::vector<std::string>& warnings) {
  if (is_top(queue.parent)) return {};
  if (queue.parent == queue.name) return "queue " + queue.name + " cannot use itself as parent";
  if (!view.online()) {
    warnings.push_back(skipped_offline("the parent queue checks"));
    return {};
  }
  if (auto e = check_depth(queue, view, options.max_queue_depth); !e.empty()) return e;
  auto parent_object = view.get_queue(queue.parent);
  if (!parent_object.ok()) {
    return "failed to get parent queue of queue " + queue.name + ": " + parent_object.error();
  }
  // A queue that runs pods itself cannot become a parent: its pods would sit in a non-leaf queue.
  const QueueModel parent = read_queue(*parent_object);
  if (read_child_queues(view, queue.parent).empty() && parent.has_allocated_pods()) {
    return "queue " + parent.name + " cannot be the parent queue of queue " + queue.name +
           " because it has allocated Pods: " + std::to_string(parent.allocated_pods());
  }
  return {};
}

std::string validate_queue_delete(const std::string& name, const ClusterView& view,
                                  const AdmissionOptions& options,
                                  std::vector<std::string>& warnings) {
  if (name == "default") return "`default` queue can not be deleted";
  if (name == "root") return "`root` queue can not be deleted";
  if (!view.online()) {
    warnings.push_back(skipped_offline("the queue deletion checks"));
    return {};
  }
  // A queue the cache does not know is refused with the lookup error, as in Volcano.
  auto object = view.get_queue(name);
  if (!object.ok()) return object.error();
  const QueueModel queue = read_queue(*object);
  if (options.enable_queue_allocated_pods_check && queue.has_allocated_pods()) {
    return "queue " + queue.name + " cannot be deleted because it has allocated Pods: " +
           std::to_string(queue.allocated_pods());
  }
  const auto children = read_child_queues(view, name);
  if (children.empty()) return {};
  std::string names;
  for (const auto& child : children) names += (names.empty() ? "" : ", ") + child.name;
  return "queue " + queue.name + " can not be deleted because it has " +
         std::to_string(children.size()) + " child queues: " + names;
}

}  // namespace vc::webhook::scheduling
