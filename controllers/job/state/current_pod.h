#pragma once
// Which of a job's cached pods may vouch for a task: count towards TaskCompleted or TaskFailed
// (pod_events.h) or make a dependency ready for dependsOn (sync/depends_on.h).
//
// Volcano counts every cached pod of the task. Ours runs ahead of its own cache: right after a
// kill the cache still shows the killed pods (the job's pods list gives the ones we deleted a
// stand-in deletionTimestamp, job_pods.h), and a pod of the previous job version that a kill
// missed is on its way out. Counting them would fire a restart policy again on a pod the restart
// already removed, or open a dependant task's gate on a dependency that is going away.
//
// Threads: pure functions; call from any thread.

#include <cstdint>
#include <optional>

#include "controllers/job/model/job.h"
#include "controllers/views/pod_view.h"

namespace vc::controllers::job {

// The pod's volcano.sh/job-version annotation as Go's strconv.ParseInt(s, 10, 32) reads it, or
// nullopt when it is missing or does not parse.
std::optional<std::int32_t> pod_job_version(const views::PodView& pod);

// False for a pod that is terminating (a deletionTimestamp, real or stand-in), and for an
// unfinished pod of an older job version (volcano.sh/job-version < status.version): a full kill
// deletes every unfinished pod and bumps the version, so such a pod is one being killed. A
// finished (Succeeded or Failed) pod of an older version still counts: a Soft kill retains it on
// purpose and the next sync adopts it, so a task it completed stays completed (Volcano's
// behaviour after Abort and Resume).
bool counts_for_task(const Job& job, const views::PodView& pod);

}  // namespace vc::controllers::job
