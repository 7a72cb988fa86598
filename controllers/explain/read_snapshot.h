#pragma once
// Reads a Snapshot (snapshot.h) from the cluster with a few requests however many jobs the
// namespace holds: the Job (or PodGroup) and the Job's PodGroup by name, the Job's pods by its
// volcano.sh/job-name label (a PodGroup's: the namespace's pods, by their group-name
// annotation), the events of those objects (by object when they are few, else the namespace's
// once), and cluster-wide the Queues and PriorityClasses, and, only when the job may be waiting
// for room (its PodGroup not admitted, or a pod without a node), the Nodes and the pods bound to
// them.
//
// Threads: one call at a time per Client is not required (Client is thread-safe); the function
// itself keeps no state.

#include <string>
#include <vector>

#include "common/kube/client.h"
#include "common/kube/result.h"
#include "controllers/explain/snapshot.h"

namespace vc::controllers::explain {

enum class TargetKind { Job, PodGroup };

struct Target {
  TargetKind kind = TargetKind::Job;
  std::string namespace_;
  std::string name;
};

// A missing Job or PodGroup is an error (NotFound); a list the caller may not read (Forbidden)
// leaves that part of the snapshot empty and adds a line to `gaps`.
kube::Result<Snapshot> read_snapshot(kube::Client& client, const Target& target,
                                     std::vector<std::string>& gaps);

// The two halves of read_snapshot, for a caller that diagnoses many jobs in a row (the Job
// controller's verdict pass) and reads the cluster-wide lists once for all of them.

struct ReadOptions {
  // When neither "<job>-<uid>" nor "<job>" is the Job's PodGroup, list the namespace's PodGroups
  // for the one it owns (a PodGroup named otherwise). The Job controller's pass turns it off:
  // its own PodGroups are named "<job>-<uid>", and a big namespace's list costs more than the
  // whole diagnosis (so does a busy namespace's events list, below).
  bool list_podgroups_when_not_found = true;
  // When the Job, its PodGroup and its pods are more than a dozen objects, list the namespace's
  // events once; off, only the events of the first dozen (the Job, the PodGroup, the pods
  // without a node first) are read, one query each.
  bool list_namespace_events_when_many = true;
};

// The Job (or PodGroup), its PodGroup, its pods and their events; now is set, the cluster-wide
// members are left empty.
kube::Result<Snapshot> read_object_part(kube::Client& client, const Target& target,
                                        std::vector<std::string>& gaps,
                                        const ReadOptions& options = {});

// The cluster-wide lists: queues and PriorityClasses always, nodes and the pods bound to them
// only on demand. Nodes and bound pods keep only what the diagnosis reads (slim_node,
// slim_pod): a large cluster's full objects would cost a reader tens of MiB.
struct ClusterLists {
  bool read = false;            // queues and priority_classes hold the cluster's
  bool nodes_read = false;      // nodes holds the cluster's
  bool node_pods_read = false;  // node_pods holds the pods bound to nodes (a caller with a pod
                                // cache fills them itself and sets this)
  std::vector<nlohmann::json> queues;
  std::vector<nlohmann::json> priority_classes;
  std::vector<nlohmann::json> nodes;
  std::vector<nlohmann::json> node_pods;
};

// Fills what `lists` lacks: queues and PriorityClasses when not read; with_room, the nodes and
// the bound pods when not read yet.
kube::Status read_cluster_lists(kube::Client& client, ClusterLists& lists, bool with_room,
                                std::vector<std::string>& gaps);

// What the diagnosis reads of a Node: name, labels, taints, unschedulable, allocatable and
// conditions.
nlohmann::json slim_node(const nlohmann::json& node);
// What the room count reads of a bound pod: name, namespace, deletionTimestamp, nodeName, the
// containers' and init containers' requests (and restartPolicy, which marks a sidecar), the
// pod-level resources, overhead, phase.
nlohmann::json slim_pod(const nlohmann::json& pod);

// Whether the diagnosis of s may need the nodes' room: its PodGroup is missing or not admitted,
// or a live pod has no node.
bool needs_room(const Snapshot& s);

// Swaps the cluster-wide members of s with those of lists (a cheap move in, and back out after
// the diagnosis, so one pass copies no list).
void swap_cluster_lists(Snapshot& s, ClusterLists& lists);

}  // namespace vc::controllers::explain
