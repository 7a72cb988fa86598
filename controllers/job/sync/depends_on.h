#pragma once
// The dependsOn gate of pod creation (spec job-controller.md §4.6): a task with
// spec.tasks[].dependsOn gets its missing pods created only once the tasks it depends on are
// ready. Checked once per sync; a readiness change arrives as a pod update, which syncs again.
//
// Threads: pure function; pod_of is called on the calling thread only.

#include <functional>
#include <string>

#include "controllers/job/model/job.h"
#include "controllers/views/pod_view.h"

namespace vc::controllers::job {

// Returns the job's pod of that name (as job_pods() in job_pods.h gathers them: a pod we deleted
// carries a deletionTimestamp), or null.
using PodLookup = std::function<views::PodViewPtr(const std::string& pod_name)>;

// True when task may create its pods: it has no dependsOn; or dependsOn.name has more than one
// entry and iteration is "any" and one dependency is ready; or every dependency is ready.
// A dependency task is ready when it has no minAvailable, or when at least minAvailable of its
// pods <job>-<dep>-0..replicas-1 are Succeeded, or Running with every container ready.
// A missing pod is not counted. (Volcano also looks the job up when a pod is missing and calls
// the dependency ready if the job is gone; the caller syncs a job it holds in its cache, so
// that branch cannot happen here.)
// Unlike Volcano, a pod counts_for_task() refuses (state/current_pod.h) is not counted either:
// a terminating one (one we have just killed included), or an unfinished one of an older job
// version.
// A dependency naming no task of the job is ready: it has no minAvailable to wait for. (The
// webhook rejects such jobs as "not a DAG"; Volcano's controller would index its task list with
// -1 for one that got through.)
bool depends_on_ready(const Job& job, const TaskSpec& task, const PodLookup& pod_of);

}  // namespace vc::controllers::job
