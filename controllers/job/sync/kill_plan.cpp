#include <cstdint>

#include "controllers/job/sync/plan.h"

namespace vc::controllers::job {
namespace {

bool is_finished_phase(std::string_view phase) {
  return phase == "Succeeded" || phase == "Failed";
}

// Go's int32 arithmetic wraps; doing it unsigned keeps that without undefined behaviour.
std::int32_t next_version(std::int32_t version) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(version) + 1U);
}

bool is_target(const views::PodView& pod, const KillTarget& target) {
  if (*pod.annotation(keys::kTaskSpec) != target.task) return false;
  switch (target.kind) {
    case KillTarget::Kind::Task:
      return true;
    case KillTarget::Kind::Pod:
      return pod.name == target.pod;
    case KillTarget::Kind::Partition: {
      const std::string* partition = pod.label(keys::kPartitionId);
      return partition != nullptr && *partition == target.partition;
    }
  }
  return false;
}

// Where both plans start: the job's status with its pod counters reset, or a no-op for a job
// being deleted (spec job-controller.md §4.3 step 1: it is left to the garbage collector).
KillPlan begin_plan(const Job& job) {
  KillPlan plan;
  plan.status = job.status;
  if (job.deletion_timestamp) {
    plan.noop = true;
    return plan;
  }
  reset_counts(plan.status);
  return plan;
}

}  // namespace

KillPlan plan_kill_job(const Job& job, const std::vector<views::PodViewPtr>& pods,
                       bool retain_finished) {
  KillPlan plan = begin_plan(job);
  if (plan.noop) return plan;
  plan.status.version = next_version(job.status.version);
  // The last retry keeps finished pods whatever the action asked for (spec job-controller.md §2.2),
  // so their exit state stays visible once R moves the job to Failed.
  const bool keep_finished = retain_finished || std::int64_t{job.status.retry_count} >=
                                                    std::int64_t{job.spec.max_retry} - 1;
  for (const views::PodViewPtr& pod : pods) {
    if (!pod || !belongs_to_job(job, *pod)) continue;
    if (pod->deletion_timestamp) {
      ++plan.status.terminating;
      continue;
    }
    if (keep_finished && is_finished_phase(pod->phase)) {
      // Deliberately unlike Volcano (volcano-sh/volcano#4616): a retained pod still counts, so
      // succeeded/failed and taskStatusCount survive the kill.
      count_pod(plan.status, *pod->annotation(keys::kTaskSpec), pod->phase);
      continue;
    }
    plan.kill.push_back(pod);
  }
  return plan;
}

KillPlan plan_kill_target(const Job& job, const std::vector<views::PodViewPtr>& pods,
                          const KillTarget& target) {
  KillPlan plan = begin_plan(job);
  if (plan.noop) return plan;
  for (const views::PodViewPtr& pod : pods) {
    if (!pod || !belongs_to_job(job, *pod)) continue;
    if (is_target(*pod, target)) plan.kill.push_back(pod);
  }
  // Volcano returns success before any write when the task has no pod in that partition (no
  // partition info, unknown or empty partition); task and pod targets always go on
  // (spec job-controller.md §2.2).
  plan.noop = target.kind == KillTarget::Kind::Partition && plan.kill.empty();
  return plan;
}

}  // namespace vc::controllers::job
