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

}  // namespace vc::controllers::explain
