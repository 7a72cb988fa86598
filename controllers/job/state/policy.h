#pragma once
// Policy resolution (spec job-controller.md §3.1): which action a request runs, and after which
// delay, given the job's task- and job-level lifecycle policies. Also the small classifications the
// worker loop needs around it: internal events and actions (spec job-controller.md §1.5), pod
// events (spec job-controller.md §3.4) and the action "type" that decides which delayed actions a
// finished action cancels (spec job-controller.md §3.4).
//
// Threads: pure functions; call from any thread.

#include <chrono>
#include <string>
#include <string_view>

#include "controllers/job/model/job.h"
#include "controllers/job/model/request.h"

namespace vc::controllers::job {

struct PolicyDecision {
  std::string action;                  // SyncJob when nothing matched
  std::chrono::milliseconds delay{0};  // policy timeout; 0 = execute now
  friend bool operator==(const PolicyDecision&, const PolicyDecision&) = default;
};

// spec job-controller.md §3.1, first hit wins: a command's action; SyncJob for internal events,
// stale-job pods (JobUid differs) and outdated requests (JobVersion < status.version); then the
// request task's policies in order; then the job's; else SyncJob. A PodPending match without a
// timeout is skipped, and a policy's exitCode is checked after its events even when the event did
// not match.
PolicyDecision apply_policies(const Job& job, const Request& req);

// True when processing req can only do what the job's own OutOfSync request does: a plain sync of
// the latest cached state. That holds when req carries no command action, comes from a pod of this
// very job (or from no pod), resolves to SyncJob with no delay, and the job has no policy with a
// timeout: only such policies register delayed actions, so there is none a pod event could cancel
// (spec job-controller.md §3.4). Lifecycle policies cannot change on a live job (the webhook
// refuses it), so the answer at enqueue time stands when the request is processed. The handlers
// enqueue such requests as the job's OutOfSync request, which lets the work queue merge a burst of
// pod events (a job's pods created, bound or started together) into one sync instead of one per
// pod.
bool is_plain_sync(const Job& job, const Request& req);

// OutOfSync, CommandIssued, PodRunning: never matched against policies.
bool is_internal_event(std::string_view event);
// SyncJob, EnqueueJob, SyncQueue, OpenQueue, CloseQueue: they cancel no delayed action.
bool is_internal_action(std::string_view action);
// PodPending, PodRunning, PodFailed, PodEvicted: the events that may cancel a pod's delayed action
// (spec job-controller.md §1.5 step 1).
bool is_pod_event(std::string_view event);

// The scope of an action for same-type cancellation (spec job-controller.md §3.4). AbortJob,
// RestartJob, TerminateJob, CompleteJob, ResumeJob and anything unrecognised are Job.
enum class ActionType { Job, Task, Pod, Partition };
ActionType action_type(std::string_view action);

}  // namespace vc::controllers::job
