#pragma once
// scheduling.volcano.sh/v1beta1 Queue, typed: the model the controllers cache (one instance per
// Queue, shared read-only) and decode with the rules of json_read.h.
//
// Threads: plain values; a cached Queue is immutable.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/resource_list.h"
#include "common/volcano/json_read.h"
#include "common/volcano/object_meta.h"

namespace vc::volcano {

struct QueueCluster {  // spec.extendClusters[]
  std::string name;
  std::int32_t weight = 0;
  api::ResourceList capacity;
};

struct NodeGroupAffinity {
  std::vector<std::string> required;   // requiredDuringSchedulingIgnoredDuringExecution
  std::vector<std::string> preferred;  // preferredDuringSchedulingIgnoredDuringExecution
};

struct QueueAffinity {
  std::optional<NodeGroupAffinity> node_group_affinity;
  std::optional<NodeGroupAffinity> node_group_anti_affinity;
};

struct QueueSpec {
  std::int32_t weight = 0;
  api::ResourceList capability;
  std::optional<bool> reclaimable;
  std::vector<QueueCluster> extend_clusters;
  api::ResourceList guarantee;  // spec.guarantee.resource
  std::optional<QueueAffinity> affinity;
  std::string type;
  std::string parent;  // "" = not set (the root's child)
  api::ResourceList deserved;
  std::int32_t priority = 0;
  std::string dequeue_strategy;
};

struct QueueReservation {
  std::vector<std::string> nodes;
  api::ResourceList resource;
};

struct QueueStatus {
  std::string state;  // verbatim; "" = never set
  std::int32_t unknown = 0;
  std::int32_t pending = 0;
  std::int32_t running = 0;
  std::int32_t inqueue = 0;
  std::int32_t completed = 0;
  std::optional<QueueReservation> reservation;
  api::ResourceList allocated;
};

struct Queue : ObjectMeta {
  QueueSpec spec;
  QueueStatus status;
};

using QueuePtr = std::shared_ptr<const Queue>;

// Throws DecodeError naming the field.
void decode_queue(const nlohmann::json& queue, Queue& out, const FieldPath& root = FieldPath());

}  // namespace vc::volcano
