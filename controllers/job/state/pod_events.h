#pragma once
// The job controller's informer handlers for pods and PodGroups as pure functions
// (spec job-controller.md §1.3): whether an object belongs to a vcjob, and which bus event a change
// becomes. The controller builds the Request from base_request_for_pod() plus the classified event
// and exit code, and updates its pod cache around the call as the comments say.
//
// Threads: pure functions over immutable views; call from any thread.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "controllers/job/model/job.h"
#include "controllers/job/model/request.h"
#include "controllers/views/pod_view.h"
#include "controllers/views/podgroup_view.h"

namespace vc::controllers::job {

struct PodEvent {
  std::string event;
  std::int32_t exit_code = 0;  // non-zero only for PodFailed
  friend bool operator==(const PodEvent&, const PodEvent&) = default;
};

// nullopt unless the pod is a vcjob pod: controller ownerRef apiVersion batch.volcano.sh/v1alpha1
// and kind Job, and annotations volcano.sh/job-name, volcano.sh/job-version (an int32) and
// volcano.sh/task-spec present. Otherwise: namespace, job name, job UID (controller ref), task,
// pod name and UID, partition (volcano.sh/partition-id label or ""), job version; event empty.
std::optional<Request> base_request_for_pod(const views::PodView& pod);

// A new pod is PodPending whatever its phase (spec job-controller.md §8.5), OutOfSync when marked
// out-of-sync.
PodEvent classify_pod_add(const views::PodView& pod);

// The caller skips updates whose resourceVersion did not change, and updates its cache first:
// job_pods are the job's pods AFTER the update (new_pod included) as job_pods() (job_pods.h)
// gathers them, so that the pods we deleted carry a deletionTimestamp. job may be null when the
// job is not cached. The order of spec job-controller.md §1.3: OutOfSync; PodFailed (with the first
// container's exit code) on entering Failed; TaskCompleted on entering Succeeded when the task's
// Succeeded pods reach its replicas; TaskFailed while Running/Pending when the task's restarts
// reach maxRetry, overridden by PodRunning/PodPending on entering that phase; OutOfSync if marked,
// above all. Unlike Volcano, the two task verdicts count only the pods counts_for_task() accepts
// (state/current_pod.h): not terminating ones, nor unfinished ones of an older job version.
PodEvent classify_pod_update(const views::PodView& old_pod, const views::PodView& new_pod,
                             const Job* job, const std::vector<views::PodViewPtr>& job_pods);

// PodEvicted, or OutOfSync when the pod is marked out-of-sync or was not in the cache.
PodEvent classify_pod_delete(const views::PodView& pod, bool was_cached);

// A PodGroup phase change: {namespace, job, event ""} or event "Unknown" when the new phase is
// Unknown. The job is the name of the last ownerReference of kind Job (any apiVersion), else the
// PodGroup's name. nullopt when the phase did not change.
std::optional<Request> request_for_podgroup_update(const views::PodGroupView& old_pg,
                                                   const views::PodGroupView& new_pg);

}  // namespace vc::controllers::job
