#pragma once
// The job controller's sync and kill plans (spec job-controller.md §2.2, §4.2, §4.3): which pods
// to create and delete, and the job status before the state machine's rule is applied, computed
// from one snapshot of the job and its cached pods. No I/O: the controller's executor applies a
// plan (creates, out-of-sync patches, deletes) and adjusts the status with what happened:
//   - each created pod is counted with count_pod(status, task, <phase of the returned pod>);
//   - each successful (or NotFound) delete adds 1 to status.terminating;
//   - each failed delete classifies that pod with count_pod.
// Then it applies the status rule (state/state_machine.h) and finishes the status
// (status_finish.h).
//
// Which pods belong to a job: the caller passes the cached pods whose volcano.sh/job-name
// annotation is the job's name in the job's namespace; the planners keep only those that pass
// belongs_to_job() (the pod handler's filter of spec job-controller.md §1.3), so a pod the
// controller would never have cached is never counted, kept or deleted.
//
// Threads: pure functions over immutable inputs; callable from any thread.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "controllers/job/model/job.h"
#include "controllers/views/pod_view.h"

namespace vc::controllers::job {

struct PodToCreate {
  std::string task;
  std::int32_t index = 0;
  std::string name;  // <job>-<task>-<index>
};

struct SyncPlan {
  // Missing pods, in spec task order then index order (spec job-controller.md §4.2 step 6).
  std::vector<PodToCreate> create;
  // Pods to delete with a plain Delete (spec job-controller.md §4.2 steps 6 and 8): in-range pods
  // carrying the out-of-sync annotation, then every other pod of a spec task whose name is not
  // <job>-<task>-<0..replicas-1> (scale-down leftovers), per task in spec order.
  std::vector<views::PodViewPtr> remove;
  // spec job-controller.md §4.2 step 9 before the rule: phase, reason, message, lastTransitionTime,
  // version, retryCount, conditions and controlledResources copied; minAvailable =
  // spec.minAvailable; counters and taskStatusCount from the classified pods; terminating =
  // in-range pods with a deletionTimestamp; runningDuration cleared.
  JobStatus status;
};

// Whether a cached pod is one of the job's pods as Volcano's pod handler sees them
// (spec job-controller.md §1.3): same namespace, volcano.sh/job-name annotation = the job's name, a
// controller owner reference of apiVersion batch.volcano.sh/v1alpha1 kind Job (any UID: pods of a
// deleted job of the same name still count), a volcano.sh/job-version annotation that parses as an
// int32, and a volcano.sh/task-spec annotation.
bool belongs_to_job(const Job& job, const views::PodView& pod);

// The pod name <job>-<task>-<index>.
std::string job_pod_name(std::string_view job, std::string_view task, std::int32_t index);

// spec job-controller.md §4.2 step 6 classification (the PodGroup admission gate and job deletion
// are the caller's): for each spec task and index, a missing pod is to create; a pod with a
// deletionTimestamp is terminating and not classified; a pod with the
// volcano.sh/controller-out-of-sync annotation is removed AND classified by phase (as Volcano
// does); any other pod is classified. Pods of a spec task with any other name are removed and not
// classified; pods of tasks not in the spec are ignored.
SyncPlan plan_sync(const Job& job, const std::vector<views::PodViewPtr>& pods);

// Zeroes pending, running, succeeded, failed, terminating, unknown and taskStatusCount.
void reset_counts(JobStatus& status);

// Classifies one pod: the counter of its phase (Pending, Running, Succeeded, Failed, anything
// else Unknown) and status.taskStatusCount[task][same phase] are incremented. task is the pod's
// volcano.sh/task-spec annotation.
void count_pod(JobStatus& status, const std::string& task, std::string_view pod_phase);

// The pods of a targeted kill (spec job-controller.md §2.2, §3.2): RestartTask, RestartPod,
// RestartPartition.
struct KillTarget {
  std::string task;
  std::string pod;
  std::string partition;
  enum class Kind { Task, Pod, Partition } kind = Kind::Task;
};

struct KillPlan {
  // Pods to patch out-of-sync and delete (spec job-controller.md §4.3 steps 3-4). In target mode it
  // may hold pods that already have a deletionTimestamp: the executor counts those as terminating
  // without a Delete.
  std::vector<views::PodViewPtr> kill;
  // The stored status with the counters and taskStatusCount replaced by this plan's counts
  // (spec job-controller.md §4.3 step 6 before the rule), everything else kept; version + 1 in full
  // mode.
  JobStatus status;
  // True when the kill returns success without any write (no patch, delete, status write, plugin
  // call or PodGroup delete): the job is being deleted, or a partition target found no pods
  // (spec job-controller.md §2.2).
  bool noop = false;
};

// KillJob, full mode (spec job-controller.md §2.2, §4.3). Every pod with a deletionTimestamp counts
// as terminating; every other pod is killed unless retained. retain_finished = Volcano's Soft
// retain set (keep Succeeded and Failed pods); it is forced on for the last retry
// (status.retryCount >= spec.maxRetry - 1). Retained pods are counted into their phase and
// taskStatusCount, so succeeded/failed survive the kill (a deliberate fix of
// volcano-sh/volcano#4616, which zeroes them). status.version is the stored version + 1.
KillPlan plan_kill_job(const Job& job, const std::vector<views::PodViewPtr>& pods,
                       bool retain_finished);

// KillTarget (spec job-controller.md §2.2): the pods of target.task (Task), the pod target.pod of
// target.task (Pod), or the pods of target.task whose volcano.sh/partition-id label is
// target.partition (Partition; noop when there is none). Pods already terminating are included. The
// counters start at zero (the written status reflects only the target pods, as in Volcano) and the
// version is not bumped. An empty task or pod name (a command's RestartTask/RestartPod) selects
// nothing but is not a noop: the job still moves to Restarting.
KillPlan plan_kill_target(const Job& job, const std::vector<views::PodViewPtr>& pods,
                          const KillTarget& target);

}  // namespace vc::controllers::job
