#pragma once
// QueueModel: the Queue fields the queue rules read, from a request object (already checked by
// check_and_decode) or from a cached queue, through the shared typed model
// (common/volcano/queue.h). Reading never fails: a cached queue that does not decode reads as an
// absent queue, as Volcano's typed cache would not hold it.
//
// Threads: a value type.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/resource_list.h"
#include "webhook/admission/cluster_view.h"

namespace vc::webhook::scheduling {

inline constexpr const char* kHierarchyAnnotation = "volcano.sh/hierarchy";
inline constexpr const char* kHierarchyWeightsAnnotation = "volcano.sh/hierarchy-weights";

struct QueueModel {
  std::string name;
  std::string parent;
  std::int32_t weight = 0;
  std::optional<bool> reclaimable;  // unset when absent (Go's nil pointer)
  std::map<std::string, std::string> annotations;
  api::ResourceList capability;
  api::ResourceList deserved;
  api::ResourceList guarantee;  // spec.guarantee.resource
  std::string state;            // status.state
  api::ResourceList allocated;  // status.allocated

  std::string annotation(const std::string& key) const {
    auto it = annotations.find(key);
    return it == annotations.end() ? std::string() : it->second;
  }
  // status.allocated["pods"] when present and non-zero.
  bool has_allocated_pods() const;
  // allocated.Value() of pods (rounded up), as Volcano prints it.
  long long allocated_pods() const;
};

QueueModel read_queue(const nlohmann::json& object);
// A queue from the cluster view; a null pointer reads as an empty queue.
QueueModel read_queue(const QueuePtr& object);

// The queues whose spec.parent is `parent`, sorted by name (Volcano's order is random).
std::vector<QueueModel> read_child_queues(const ClusterView& view, std::string_view parent);
// Every queue, sorted by name.
std::vector<QueueModel> read_all_queues(const ClusterView& view);

}  // namespace vc::webhook::scheduling
