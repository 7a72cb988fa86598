#pragma once
// The pods of a job as the job controller must plan from them. The pod informer's cache lags the
// controller's own writes: a pod created a moment ago may be missing from it, and a pod deleted a
// moment ago may still show as live. A sync planned on the cache alone would create the missing
// pod again and count it out of the status, a kill would leave it alive, and a task verdict would
// count a pod the controller has just killed. job_pods() corrects the cache with what the
// controller knows it wrote and the cache has not shown yet (PendingWrites).
//
// Threads: job_pods() may be called from any thread (the store and the records lock themselves).

#include <string>
#include <vector>

#include "common/api/time.h"
#include "common/kube/cache/store.h"
#include "controllers/job/pending_creates.h"
#include "controllers/job/pending_deletes.h"
#include "controllers/views/pod_view.h"

namespace vc::controllers::job {

// The name of the pod index the job controller reads: "<namespace>/<volcano.sh/job-name>" of each
// pod a Job controls.
inline constexpr const char* kJobPodsIndex = "vc-job-pods";
std::vector<std::string> job_pods_index(const kube::cache::Object& obj);

// What the job controller wrote that its informers have not shown yet. The syncer records; the
// pod informer's handler forgets a created pod once it shows it; the TTLs bound the rest.
struct PendingWrites {
  PendingCreates pods_created;       // stand-ins are PodViews (job_pods)
  PendingCreates podgroups_created;  // name and UID only (the syncer's kill)
  PendingDeletes deleted;            // pods and PodGroups, by UID
};

// The job's pods (job_key "<namespace>/<name>", by kJobPodsIndex in pods), in no order:
//   - a cached pod we deleted that the cache still shows without a deletionTimestamp is given
//     deletion_stand_in as one (it is terminating);
//   - a pod we created that the cache lacks is added as its stand-in (the pod we sent, with the
//     UID and phase of the create's reply), given deletion_stand_in too if we deleted it since.
// A cached pod of the same name wins over a stand-in. Records the cache has caught up with are
// forgotten: a deleted pod now showing a deletionTimestamp, a created pod now cached.
std::vector<views::PodViewPtr> job_pods(const kube::cache::Store& pods, const std::string& job_key,
                                        PendingWrites& pending, api::TimePoint deletion_stand_in);

}  // namespace vc::controllers::job
