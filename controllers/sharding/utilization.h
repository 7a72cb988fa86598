#pragma once
// Node utilization as the sharding-controller computes it (spec controller-manager.md §5.7.3):
// the cpu and memory requests of the regular containers of the node's pods that are neither
// Succeeded, Failed nor mirror pods, over the node's capacity, at most 1. Also the compact cached
// forms of nodes and pods it reads, and the change tests that decide which events matter.
//
// Threads: transforms are thread-safe; cached objects immutable; the rest pure functions.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/kube/cache/object.h"

namespace vc::controllers::sharding {

inline constexpr double kSignificantChange = 0.5;

struct NodeCapacity : kube::cache::Object {
  std::int64_t cpu_milli = 0;  // status.capacity.cpu in millicores, rounded up
  std::int64_t cpu_cores = 0;  // status.capacity.cpu in cores, rounded up
  std::int64_t memory = 0;     // status.capacity.memory in bytes, rounded up
  std::uint64_t annotations_hash = 0;
  std::size_t annotation_count = 0;
};

struct PodUsage : kube::cache::Object {
  std::string node_name;       // spec.nodeName
  bool active = true;          // not Succeeded, Failed or a mirror pod
  std::size_t containers = 0;  // spec.containers
  std::int64_t cpu_milli = 0;  // sum of containers' requests.cpu, each rounded up to 1m
  std::int64_t memory = 0;     // sum of containers' requests.memory, each rounded up to 1 byte
};

// Named "sharding-node" and "sharding-pod". Throw std::invalid_argument on a malformed quantity.
kube::cache::Transform node_capacity_transform();
kube::cache::Transform pod_usage_transform();

std::shared_ptr<const NodeCapacity> as_node(const kube::cache::ObjectPtr& object);
std::shared_ptr<const PodUsage> as_pod(const kube::cache::ObjectPtr& object);

struct NodeMetrics {
  double cpu = 0;     // [0, 1]
  double memory = 0;  // [0, 1]
};

NodeMetrics node_metrics(const NodeCapacity& node, const std::vector<const PodUsage*>& pods);

// A change worth a sync: no metrics before, or cpu or memory moved by more than 0.5.
bool utilization_changed(const std::optional<NodeMetrics>& before, const NodeMetrics& now);

// A node update worth recomputing: labels or annotations differ, or the cpu capacity (cores)
// moved by more than half of (old + 1).
bool node_changed(const NodeCapacity& before, const NodeCapacity& after);

// A pod update's requests changed (container count, cpu or memory).
bool pod_requests_changed(const PodUsage& before, const PodUsage& after);

}  // namespace vc::controllers::sharding
