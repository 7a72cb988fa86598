#pragma once
// spec.minResources of a Job's PodGroup (spec job-controller.md §4.1.1): the quota usage of the
// pods the gang needs at minimum, choosing tasks by priority.
//
// Per-pod usage is Kubernetes' quota usage of a pod built from the task template (phase empty,
// so it is never terminal): count/pods and pods, cpu/memory/ephemeral-storage with their
// requests. and limits. forms, hugepages-* with requests.hugepages-*, requests.<X> for every
// extended resource X, and Volcano's extra copy of every non-native requests.<X> under <X>.
// Quantities print as Kubernetes' quota arithmetic prints them: a value copied once keeps its
// text ("500m"), a sum is canonical.
//
// Threads: pure functions; callable from any thread. priority_of is called on the caller's
// thread.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/resource_list.h"
#include "controllers/job/model/job.h"

namespace vc::controllers::job {

// The value of the PriorityClass with that name, or nullopt when it does not exist (its tasks
// then count as priority 0, as in Volcano).
using PriorityOf = std::function<std::optional<std::int32_t>(const std::string& class_name)>;

// The quota usage of one pod whose spec is `pod_spec` (a v1.PodSpec object), including the
// unprefixed copies of non-native requests.<X> keys. Throws std::invalid_argument for a
// malformed quantity (the API server never stores one).
api::ResourceList pod_quota_usage(const nlohmann::json& pod_spec);

// One task as the two minResources algorithms see it.
struct TaskUsage {
  std::int32_t priority = 0;  // of template.spec.priorityClassName (0 if none or unknown)
  std::int32_t replicas = 0;
  std::optional<std::int32_t> min_available;
  api::ResourceList usage;  // pod_quota_usage of one pod
};

// Volcano's CalcFirstCountResources: the first `count` pods, taking tasks by priority
// (descending, ties in task order) and up to `replicas` pods from each.
api::ResourceList first_count_resources(std::vector<TaskUsage> tasks, std::int32_t count);

// Volcano's CalcPGMinResources: min(minAvailable, what is still missing) pods of each task that
// sets minAvailable, by priority, until job_min pods are counted; then, if short, spare replicas
// (replicas - minAvailable, or replicas when minAvailable is unset) by priority.
api::ResourceList min_then_spare_resources(std::vector<TaskUsage> tasks, std::int32_t job_min);

// spec job-controller.md §4.1.1 over the task templates; the result may be empty (never
// "unset"). Throws std::invalid_argument for a template that holds a malformed quantity.
// Σ(task.minAvailable ?? replicas) > job minAvailable selects first_count_resources, else
// min_then_spare_resources.
api::ResourceList job_min_resources(const Job& job, const PriorityOf& priority_of);

}  // namespace vc::controllers::job
