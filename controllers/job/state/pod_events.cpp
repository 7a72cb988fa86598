#include "controllers/job/state/pod_events.h"

#include <string_view>

#include "controllers/job/state/current_pod.h"

namespace vc::controllers::job {
namespace {

constexpr std::string_view kPodPending = "Pending";
constexpr std::string_view kPodRunning = "Running";
constexpr std::string_view kPodSucceeded = "Succeeded";
constexpr std::string_view kPodFailed = "Failed";

bool out_of_sync(const views::PodView& pod) {
  return pod.annotation(keys::kOutOfSync) != nullptr;
}

bool of_task(const views::PodView& pod, const std::string& task) {
  const std::string* t = pod.annotation(keys::kTaskSpec);
  return t != nullptr && *t == task;
}

// Volcano's cache TaskCompleted: the task's Succeeded pods reach its replicas. Pods that may not
// vouch for the task (terminating, killed by us) are not counted (current_pod.h).
bool task_completed(const Job* job, const std::string& task_name,
                    const std::vector<views::PodViewPtr>& job_pods) {
  if (job == nullptr) return false;
  const TaskSpec* task = job->spec.task(task_name);
  if (task == nullptr || task->replicas <= 0) return false;
  std::int32_t succeeded = 0;
  for (const auto& pod : job_pods) {
    if (of_task(*pod, task_name) && pod->phase == kPodSucceeded && counts_for_task(*job, *pod)) {
      ++succeeded;
    }
  }
  return succeeded >= task->replicas;
}

// Volcano's cache TaskFailed: container restarts of the task's live (Running or Pending) pods
// reach its maxRetry (0 means 3, -1 means never). Pods that may not vouch for the task
// (terminating, killed by us, left over from the job version before a restart) are not counted
// (current_pod.h): their restarts are the ones the restart already answered.
bool task_failed(const Job* job, const std::string& task_name,
                 const std::vector<views::PodViewPtr>& job_pods) {
  if (job == nullptr) return false;
  const TaskSpec* task = job->spec.task(task_name);
  if (task == nullptr || task->replicas == 0 || task->max_retry == -1) return false;
  const std::int64_t max_retry = task->max_retry == 0 ? 3 : task->max_retry;
  bool any_pod = false;  // Volcano answers false when the cache holds no pod of the task
  std::int64_t restarts = 0;
  for (const auto& pod : job_pods) {
    if (!of_task(*pod, task_name) || !counts_for_task(*job, *pod)) continue;
    any_pod = true;
    if (pod->phase == kPodRunning || pod->phase == kPodPending) {
      restarts += pod->total_restart_count();
    }
  }
  return any_pod && restarts >= max_retry;
}

}  // namespace

std::optional<Request> base_request_for_pod(const views::PodView& pod) {
  const views::OwnerRefView* owner = pod.controller_ref();
  if (owner == nullptr || owner->api_version != kJobApiVersion || owner->kind != kJobKind) {
    return std::nullopt;
  }
  const std::string* job_name = pod.annotation(keys::kJobName);
  const std::string* version = pod.annotation(keys::kJobVersion);
  const std::string* task = pod.annotation(keys::kTaskSpec);
  if (job_name == nullptr || version == nullptr || task == nullptr) return std::nullopt;
  std::optional<std::int32_t> job_version = pod_job_version(pod);
  if (!job_version) return std::nullopt;

  Request req;
  req.namespace_ = pod.namespace_;
  req.job_name = *job_name;
  req.job_uid = owner->uid;
  req.task_name = *task;
  req.pod_name = pod.name;
  req.pod_uid = pod.uid;
  const std::string* partition = pod.label(keys::kPartitionId);
  if (partition != nullptr) req.partition_id = *partition;
  req.job_version = *job_version;
  return req;
}

PodEvent classify_pod_add(const views::PodView& pod) {
  return {out_of_sync(pod) ? event::kOutOfSync : event::kPodPending, 0};
}

PodEvent classify_pod_update(const views::PodView& old_pod, const views::PodView& new_pod,
                             const Job* job, const std::vector<views::PodViewPtr>& job_pods) {
  PodEvent out{event::kOutOfSync, 0};
  const std::string* task_annotation = new_pod.annotation(keys::kTaskSpec);
  const std::string task = task_annotation ? *task_annotation : std::string();
  const std::string_view now = new_pod.phase;
  const std::string_view before = old_pod.phase;
  if (now == kPodFailed) {
    if (before != kPodFailed) {
      out.event = event::kPodFailed;
      out.exit_code = new_pod.first_container_exit_code().value_or(0);
    }
  } else if (now == kPodSucceeded) {
    if (before != kPodSucceeded && task_completed(job, task, job_pods)) {
      out.event = event::kTaskCompleted;
    }
  } else if (now == kPodRunning || now == kPodPending) {
    if (task_failed(job, task, job_pods)) out.event = event::kTaskFailed;
    // Entering the phase wins over TaskFailed, as in Volcano.
    if (before != now) out.event = now == kPodRunning ? event::kPodRunning : event::kPodPending;
  }
  // The controller marks pods it is about to delete; their events are its own doing. The exit
  // code computed above is kept, as Volcano's request does.
  if (out_of_sync(new_pod)) out.event = event::kOutOfSync;
  return out;
}

PodEvent classify_pod_delete(const views::PodView& pod, bool was_cached) {
  return {out_of_sync(pod) || !was_cached ? event::kOutOfSync : event::kPodEvicted, 0};
}

std::optional<Request> request_for_podgroup_update(const views::PodGroupView& old_pg,
                                                   const views::PodGroupView& new_pg) {
  if (old_pg.phase == new_pg.phase) return std::nullopt;
  Request req;
  req.namespace_ = new_pg.namespace_;
  req.job_name = new_pg.name;
  for (const auto& ref : new_pg.owner_references) {
    if (ref.kind == kJobKind) req.job_name = ref.name;  // the last one wins, as in Volcano
  }
  if (new_pg.phase == "Unknown") req.event = event::kJobUnknown;
  return req;
}

}  // namespace vc::controllers::job
