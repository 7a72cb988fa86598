// validateHierarchicalQueueResources of /queues/validate (spec webhook.md §2.6 step 4), with
// Volcano's float arithmetic (resource.h). Siblings and children are visited in name order, and
// every walk up or down the tree stops at a queue it has already seen, where Volcano would loop
// forever on a cycle.

#include <algorithm>
#include <optional>
#include <set>

#include "webhook/admission/scheduling/offline.h"
#include "webhook/admission/scheduling/queue_rules.h"
#include "webhook/admission/scheduling/resource.h"

namespace vc::webhook::scheduling {
namespace {

bool is_top(const std::string& parent) {
  return parent.empty() || parent == "root";
}

// The capability of the nearest ancestor that sets `name` above zero.
std::optional<double> nearest_ancestor_capability(const QueueModel& queue, const std::string& name,
                                                  const ClusterView& view) {
  std::set<std::string> seen;
  for (std::string p = queue.parent; !is_top(p) && seen.insert(p).second;) {
    auto object = view.get_queue(p);
    if (!object.ok()) return std::nullopt;
    const QueueModel ancestor = read_queue(*object);
    const double value = Resource::from_list(ancestor.capability).get(name);
    if (value > 0) return value;
    p = ancestor.parent;
  }
  return std::nullopt;
}

// The largest capability for `name` in the subtree: a queue that sets it stands for its subtree.
double subtree_max_capability(const QueueModel& queue, const std::string& name,
                              const ClusterView& view, std::set<std::string>& seen) {
  const double own = Resource::from_list(queue.capability).get(name);
  if (own > 0) return own;
  double max = 0;
  for (const auto& child : read_child_queues(view, queue.name)) {
    if (!seen.insert(child.name).second) continue;
    max = std::max(max, subtree_max_capability(child, name, view, seen));
  }
  return max;
}

// Adds each queue's guarantee and deserved in turn and fails as soon as a sum exceeds the limit.
// `subject` starts the message: "parent queue p" for siblings, "queue q" for children.
class SumCheck {
 public:
  SumCheck(std::string subject, const QueueModel& limit)
      : subject_(std::move(subject)),
        guarantee_limit_(Resource::from_list(limit.guarantee)),
        deserved_limit_(Resource::from_list(limit.deserved)) {}

  std::string add(const QueueModel& queue) {
    guarantee_.add(Resource::from_list(queue.guarantee));
    if (guarantee_limit_.less_partly(guarantee_))
      return message("guarantee", guarantee_, guarantee_limit_);
    deserved_.add(Resource::from_list(queue.deserved));
    if (deserved_limit_.less_partly(deserved_))
      return message("deserved", deserved_, deserved_limit_);
    return {};
  }

 private:
  std::string message(const char* what, const Resource& sum, const Resource& limit) const {
    return subject_ + " validation failed: sum of children's " + what + " (" + sum.to_string() +
           ") exceeds parent's " + what + " limit (" + limit.to_string() + ")";
  }

  std::string subject_;
  Resource guarantee_limit_;
  Resource deserved_limit_;
  Resource guarantee_;
  Resource deserved_;
};

std::string check_against_parent(const QueueModel& queue, const ClusterView& view) {
  auto parent_object = view.get_queue(queue.parent);
  if (!parent_object.ok()) {
    return "parent queue " + queue.parent + " not found: " + parent_object.error();
  }
  const QueueModel parent = read_queue(*parent_object);
  const Resource capability = Resource::from_list(queue.capability);
  for (const auto& name : capability.resource_names()) {
    const double own = capability.get(name);
    auto limit = nearest_ancestor_capability(queue, name, view);
    if (limit && own > *limit) {
      return "queue " + queue.name + " capability[" + name +
             "]=" + format_resource_value(name, own) +
             " exceeds its ancestor's capability=" + format_resource_value(name, *limit);
    }
  }
  SumCheck sums("parent queue " + parent.name, parent);
  for (const auto& sibling : read_child_queues(view, queue.parent)) {
    if (sibling.name == queue.name) continue;
    if (auto e = sums.add(sibling); !e.empty()) return e;
  }
  return sums.add(queue);
}

std::string check_children(const QueueModel& queue, const std::vector<QueueModel>& children,
                           const ClusterView& view) {
  const Resource capability = Resource::from_list(queue.capability);
  for (const auto& name : capability.resource_names()) {
    const double own = capability.get(name);
    double child_max = 0;
    std::set<std::string> seen{queue.name};
    for (const auto& child : children) {
      if (!seen.insert(child.name).second) continue;
      child_max = std::max(child_max, subtree_max_capability(child, name, view, seen));
    }
    if (own < child_max) {
      return "queue " + queue.name + " capability[" + name +
             "]=" + format_resource_value(name, own) +
             " is smaller than its descendants' max capability=" +
             format_resource_value(name, child_max);
    }
  }
  SumCheck sums("queue " + queue.name, queue);
  for (const auto& child : children) {
    if (auto e = sums.add(child); !e.empty()) return e;
  }
  return {};
}

}  // namespace

std::string validate_queue_hierarchy(const QueueModel& queue, const ClusterView& view,
                                     std::vector<std::string>& warnings) {
  if (!view.online()) {
    warnings.push_back(skipped_offline("the hierarchical queue resource checks"));
    return {};
  }
  if (!is_top(queue.parent)) {
    if (auto e = check_against_parent(queue, view); !e.empty()) return e;
  }
  const auto children = read_child_queues(view, queue.name);
  if (children.empty()) return {};
  return check_children(queue, children, view);
}

}  // namespace vc::webhook::scheduling
