#include "controllers/job/state/policy.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace vc::controllers::job {
namespace {

PolicyDecision decide(const LifecyclePolicy& policy) {
  return {policy.action, std::chrono::duration_cast<std::chrono::milliseconds>(
                             policy.timeout.value_or(std::chrono::nanoseconds{0}))};
}

// The first of the policies that matches the request, in order
// (spec job-controller.md §3.1 step 5).
std::optional<PolicyDecision> match(const std::vector<LifecyclePolicy>& policies,
                                    const Request& req) {
  for (const auto& policy : policies) {
    // A policy names events in `events`, in `event`, or both.
    if (!req.event.empty() && (policy.names_event(req.event) || policy.names_event(event::kAny))) {
      // A pod being Pending is normal: it only acts when the policy sets how long is too long.
      if (req.event != event::kPodPending || policy.timeout) return decide(policy);
    }
    // Not an else: a skipped PodPending match still looks at the exit code, as Volcano does.
    if (policy.exit_code && *policy.exit_code == req.exit_code) return decide(policy);
  }
  return std::nullopt;
}

}  // namespace

PolicyDecision apply_policies(const Job& job, const Request& req) {
  const PolicyDecision sync{action::kSyncJob, std::chrono::milliseconds{0}};
  if (!req.action.empty()) return {req.action, std::chrono::milliseconds{0}};
  if (is_internal_event(req.event)) return sync;
  // A pod of a previous job with the same name.
  if (!req.job_uid.empty() && req.job_uid != job.uid) return sync;
  // Pods (and PodGroup requests, version 0) from before the last full kill.
  if (req.job_version < job.status.version) return sync;
  if (!req.task_name.empty()) {
    if (const TaskSpec* task = job.spec.task(req.task_name)) {
      if (auto hit = match(task->policies, req)) return *hit;
    }
  }
  if (auto hit = match(job.spec.policies, req)) return *hit;
  return sync;
}

bool is_plain_sync(const Job& job, const Request& req) {
  if (!req.action.empty()) return false;
  // A pod of another job with this name: the cache may still hold the job the pod does not
  // belong to, whose policies say nothing about what the pod's own job will do with it.
  if (!req.job_uid.empty() && req.job_uid != job.uid) return false;
  const auto has_timeout = [](const std::vector<LifecyclePolicy>& policies) {
    return std::any_of(policies.begin(), policies.end(),
                       [](const LifecyclePolicy& p) { return p.timeout.has_value(); });
  };
  if (has_timeout(job.spec.policies)) return false;
  for (const TaskSpec& task : job.spec.tasks) {
    if (has_timeout(task.policies)) return false;
  }
  return apply_policies(job, req) == PolicyDecision{action::kSyncJob, {}};
}

bool is_internal_event(std::string_view event) {
  return event == event::kOutOfSync || event == event::kCommandIssued ||
         event == event::kPodRunning;
}

bool is_internal_action(std::string_view action) {
  return action == action::kSyncJob || action == action::kEnqueueJob ||
         action == action::kSyncQueue || action == action::kOpenQueue ||
         action == action::kCloseQueue;
}

bool is_pod_event(std::string_view event) {
  return event == event::kPodPending || event == event::kPodRunning || event == event::kPodFailed ||
         event == event::kPodEvicted;
}

ActionType action_type(std::string_view action) {
  if (action == action::kRestartTask) return ActionType::Task;
  if (action == action::kRestartPod) return ActionType::Pod;
  if (action == action::kRestartPartition) return ActionType::Partition;
  return ActionType::Job;
}

}  // namespace vc::controllers::job
