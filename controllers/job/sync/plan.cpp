#include "controllers/job/sync/plan.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <unordered_set>

namespace vc::controllers::job {
namespace {

// Go's strconv.ParseInt(s, 10, 32) succeeds: an optional sign, then decimal digits only.
bool parses_as_int32(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || stop != end) return false;
  const std::uint64_t limit = negative ? std::uint64_t{1} << 31 : (std::uint64_t{1} << 31) - 1;
  return value <= limit;
}

// The job's pods grouped by their volcano.sh/task-spec annotation, as Volcano's job cache groups
// them. Keys view the pods' annotation values.
using PodsByTask = std::unordered_map<std::string_view, std::vector<const views::PodViewPtr*>>;

PodsByTask group_by_task(const Job& job, const std::vector<views::PodViewPtr>& pods) {
  PodsByTask by_task;
  for (const views::PodViewPtr& pod : pods) {
    if (!pod || !belongs_to_job(job, *pod)) continue;
    by_task[*pod->annotation(keys::kTaskSpec)].push_back(&pod);
  }
  return by_task;
}

}  // namespace

bool belongs_to_job(const Job& job, const views::PodView& pod) {
  if (pod.namespace_ != job.namespace_) return false;
  const std::string* job_name = pod.annotation(keys::kJobName);
  if (job_name == nullptr || *job_name != job.name) return false;
  const views::OwnerRefView* owner = pod.controller_ref();
  if (owner == nullptr || owner->api_version != kJobApiVersion || owner->kind != kJobKind) {
    return false;
  }
  const std::string* version = pod.annotation(keys::kJobVersion);
  if (version == nullptr || !parses_as_int32(*version)) return false;
  return pod.annotation(keys::kTaskSpec) != nullptr;
}

std::string job_pod_name(std::string_view job, std::string_view task, std::int32_t index) {
  std::string name;
  std::string idx = std::to_string(index);
  name.reserve(job.size() + task.size() + idx.size() + 2);
  name.append(job).append("-").append(task).append("-").append(idx);
  return name;
}

void reset_counts(JobStatus& status) {
  status.pending = 0;
  status.running = 0;
  status.succeeded = 0;
  status.failed = 0;
  status.terminating = 0;
  status.unknown = 0;
  status.task_status_count.clear();
}

void count_pod(JobStatus& status, const std::string& task, std::string_view pod_phase) {
  std::string_view bucket = "Unknown";
  std::int32_t* counter = &status.unknown;
  if (pod_phase == "Pending") {
    bucket = "Pending";
    counter = &status.pending;
  } else if (pod_phase == "Running") {
    bucket = "Running";
    counter = &status.running;
  } else if (pod_phase == "Succeeded") {
    bucket = "Succeeded";
    counter = &status.succeeded;
  } else if (pod_phase == "Failed") {
    bucket = "Failed";
    counter = &status.failed;
  }
  ++*counter;
  ++status.task_status_count[task][std::string(bucket)];
}

SyncPlan plan_sync(const Job& job, const std::vector<views::PodViewPtr>& pods) {
  SyncPlan plan;
  plan.status = job.status;
  reset_counts(plan.status);
  plan.status.min_available = job.spec.min_available;
  plan.status.running_duration.reset();

  PodsByTask by_task = group_by_task(job, pods);
  std::unordered_set<std::string_view> seen_tasks;
  for (const TaskSpec& task : job.spec.tasks) {
    // The webhook rejects duplicate task names; should one slip through, the first task wins, as
    // JobSpec::task() does, instead of planning the same pods twice.
    if (!seen_tasks.insert(task.name).second) continue;
    auto group = by_task.find(task.name);
    std::unordered_map<std::string_view, const views::PodViewPtr*> unmatched;
    if (group != by_task.end()) {
      unmatched.reserve(group->second.size());
      for (const views::PodViewPtr* pod : group->second) unmatched.emplace((*pod)->name, pod);
    }
    for (std::int32_t index = 0; index < task.replicas; ++index) {
      std::string name = job_pod_name(job.name, task.name, index);
      auto found = unmatched.find(name);
      if (found == unmatched.end()) {
        plan.create.push_back({task.name, index, std::move(name)});
        continue;
      }
      const views::PodViewPtr& pod = *found->second;
      unmatched.erase(found);
      if (pod->deletion_timestamp) {
        ++plan.status.terminating;
        continue;
      }
      // Volcano deletes an out-of-sync pod and still counts it by phase this round
      // (spec job-controller.md §8.12).
      if (pod->annotation(keys::kOutOfSync) != nullptr) plan.remove.push_back(pod);
      count_pod(plan.status, *pod->annotation(keys::kTaskSpec), pod->phase);
    }
    // Leftovers (indices >= replicas after a scale-down, foreign names) are deleted, in name
    // order so that plans are reproducible.
    std::vector<const views::PodViewPtr*> leftovers;
    leftovers.reserve(unmatched.size());
    for (const auto& [name, pod] : unmatched) leftovers.push_back(pod);
    std::sort(leftovers.begin(), leftovers.end(),
              [](const views::PodViewPtr* a, const views::PodViewPtr* b) {
                return (*a)->name < (*b)->name;
              });
    for (const views::PodViewPtr* pod : leftovers) plan.remove.push_back(*pod);
  }
  return plan;
}

}  // namespace vc::controllers::job
