#pragma once
// The rules of /queues/validate (spec webhook.md §2.6), one function per Volcano step. Each
// returns "" when the queue passes, else the denial message. Rules that need cluster lookups
// skip them when the view is offline and append a warning instead.
//
// Threads: pure functions over the view; callable from any thread.

#include <string>
#include <vector>

#include "webhook/admission/cluster_view.h"
#include "webhook/admission/options.h"
#include "webhook/admission/scheduling/queue_model.h"

namespace vc::webhook::scheduling {

// validateQueue: resource quantities, state and hierarchy annotations, aggregated.
std::string validate_queue_fields(const QueueModel& queue, const ClusterView& view,
                                  std::vector<std::string>& warnings);

// validateHierarchicalQueue: self-parenting, depth limit, parent existence, and a parent that
// still runs pods of its own cannot take its first child.
std::string validate_queue_parent(const QueueModel& queue, const ClusterView& view,
                                  const AdmissionOptions& options,
                                  std::vector<std::string>& warnings);

// validateHierarchicalQueueResources: capability against ancestors and descendants, and the
// guarantee/deserved sums of siblings and children against their parent.
std::string validate_queue_hierarchy(const QueueModel& queue, const ClusterView& view,
                                     std::vector<std::string>& warnings);

// validateQueueDeleting: default and root stay, the queue must be known, and it may hold
// neither allocated pods (when checked) nor child queues.
std::string validate_queue_delete(const std::string& name, const ClusterView& view,
                                  const AdmissionOptions& options,
                                  std::vector<std::string>& warnings);

}  // namespace vc::webhook::scheduling
