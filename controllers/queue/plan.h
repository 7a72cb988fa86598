#pragma once
// The queue reconciler's pure core (spec controller-manager.md §2.4-§2.6): from one request and
// a snapshot of the caches, the ordered list of steps the executor performs. The executor stops
// at the first step that fails and the request is retried, so a plan is written in the order
// Volcano performs the writes (except that OPEN and CLOSE write the queue's own state before they
// touch its children; docs/compat.md); a Fail step stands where Volcano would return an error.
//
// Pure functions; callable from any thread.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "controllers/queue/model.h"

namespace vc::controllers::queue {

// What the planner may read: the queue, its parent, its children and its PodGroups, all from
// the informer caches.
struct Snapshot {
  QueueInfo queue;
  // The cached queue named by effective_parent(queue), if any.
  std::optional<QueueInfo> parent;
  // Cached queues whose spec.parent is this queue's name.
  std::vector<QueueInfo> children;
  // status.phase of every PodGroup whose spec.queue is this queue ("" when unset).
  std::vector<std::string> podgroup_phases;
};

// The parent SYNC checks: spec.parent, "root" when unset, none for root itself.
std::string effective_parent(const QueueInfo& queue);

// The errors of a queue whose parent is missing, or Closed or Closing when it is to be opened.
std::string parent_missing_message(const std::string& queue, const std::string& parent);
std::string parent_closed_message(const std::string& queue, const std::string& parent);

namespace step {
// Set spec.parent of the plan's queue to "root" (it was empty), guarded by resource_version.
struct DefaultParent {
  std::string resource_version;
};
// Publish the five volcano_queue_pod_group_*_count gauges of the plan's queue.
struct PublishCounts {
  PhaseCounts counts;
};
// Server-side apply status.state of the plan's queue. On failure a Warning event with
// failure_reason and failure_prefix + error is recorded when failure_reason is set; on success
// a Normal event when success_reason is set.
struct ApplyState {
  std::string from;
  std::string to;
  std::string failure_reason;
  std::string failure_prefix;
  std::string success_reason;
  std::string success_message;
};
// Set the volcano.sh/closed-by-parent annotation of a queue (this one or a child). A failure
// becomes the error failure_prefix + error.
struct Annotate {
  std::string queue;
  std::string value;
  std::string failure_prefix;
};
// Read the queue's parent from the API server (not the cache) and stop with OPEN's error when it
// is missing, Closed or Closing.
struct RequireParentOpen {
  std::string parent;
};
// Put a request on the queue work queue.
struct Enqueue {
  Request request;
};
// Stop here with this error.
struct Fail {
  std::string message;
};
// Log this at info level (a decision with no write, e.g. "Root queue cannot be closed").
struct Note {
  std::string message;
};
}  // namespace step

using Step =
    std::variant<step::DefaultParent, step::PublishCounts, step::ApplyState, step::Annotate,
                 step::RequireParentOpen, step::Enqueue, step::Fail, step::Note>;

struct Plan {
  QueueInfo queue;  // the queue the request is about (events are recorded on it)
  std::vector<Step> steps;
};

// The plan for one request. snapshot.queue is the queue named by request.queue.
Plan plan_request(const Request& request, const Snapshot& snapshot);

// One line per step, e.g. "ApplyState Closing->Closed", for tests and debug logs.
std::vector<std::string> describe(const Plan& plan);

}  // namespace vc::controllers::queue
