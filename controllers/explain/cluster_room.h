#pragma once
// Resource figures for the diagnosis: a gang's minimum, a queue's capability, and the room the
// cluster's nodes have, as the scheduler counts it (a node's allocatable minus the requests of
// the pods bound to it that still run).
//
// Threads: pure functions.

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/resource_list.h"
#include "controllers/explain/json_read.h"

namespace vc::controllers::explain {

// The resource list at path; entries that are not valid quantities are left out.
api::ResourceList resources(const nlohmann::json& j, Path path);
// The entries a node offers (cpu, memory, pods, extended resources): without the quota forms
// "requests.X", "limits.X" and "count/X" that PodGroup minResources also carries.
api::ResourceList schedulable(const api::ResourceList& list);
// Where need is more than have, as "cpu: needs 3, has 1; memory: ...", or "" when it fits.
// Only need's entries count; one missing from have counts as none (for nodes) or as no limit
// (for queue capabilities), as `missing` says.
std::string exceeding(const api::ResourceList& need, const api::ResourceList& have,
                      api::MissingDimension missing);

struct NodeRoom {
  std::string name;
  api::ResourceList allocatable;
  api::ResourceList free;
};

struct ClusterRoom {
  std::vector<NodeRoom> nodes;    // the schedulable ones: Ready and not cordoned
  api::ResourceList allocatable;  // their sum
  api::ResourceList free;         // their sum
};

// node_pods: pods bound to nodes; the ones neither finished nor deleted take room.
ClusterRoom cluster_room(const std::vector<nlohmann::json>& nodes,
                         const std::vector<nlohmann::json>& node_pods);

// The part of room on the named nodes (the sums recomputed over them).
ClusterRoom restrict_to(const ClusterRoom& room, const std::set<std::string>& names);

// How many of the pods whose requests are `each` fit in the nodes' free room, each placed on the
// first node with room left for it and taking a pod slot ("pods") there besides its requests.
// The sums of free room can cover a gang whose pods still fit nowhere: room split over nodes, or
// a node with CPU left and no pod slot.
std::size_t pods_that_fit(const std::vector<api::ResourceList>& each,
                          const std::vector<NodeRoom>& nodes);

// The requests of one pod (its effective requests, as the scheduler counts them), or empty when
// the pod's spec cannot be read.
api::ResourceList pod_requests_of(const nlohmann::json& pod);

}  // namespace vc::controllers::explain

namespace vc::controllers::explain {

// list's entries that keys also names (to print a node's room in the gang's dimensions only).
api::ResourceList only(const api::ResourceList& list, const api::ResourceList& keys);

}  // namespace vc::controllers::explain
