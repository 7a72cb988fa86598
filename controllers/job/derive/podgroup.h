#pragma once
// The PodGroup (scheduling.volcano.sh/v1beta1) the job controller keeps for each Job
// (spec job-controller.md §4.1): building it, updating an existing one, and deciding from the
// cached view whether an update may be needed at all.
//
// Threads: pure functions; callable from any thread. priority_of is called on the caller's
// thread.

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "controllers/job/derive/min_resources.h"  // PriorityOf
#include "controllers/job/model/job.h"
#include "controllers/views/podgroup_view.h"

namespace vc::controllers::job {

inline constexpr const char* kPodGroupApiVersion = "scheduling.volcano.sh/v1beta1";
inline constexpr const char* kPodGroupKind = "PodGroup";

// "<job>-<job uid>" (the pre-v1.5 name "<job>" is only looked up, never created).
std::string podgroup_name(const Job& job);

// spec.minTaskMember[task]: task.minAvailable if set; else minPartitions x partitionSize when
// both are non-zero; else replicas.
std::int32_t min_task_member(const TaskSpec& task);

// spec.subGroupPolicy entry for a task that has a partitionPolicy.
nlohmann::json subgroup_policy(const TaskSpec& task);

// The PodGroup to create (spec job-controller.md §4.1 "Create"). Throws std::invalid_argument like
// job_min_resources.
nlohmann::json build_podgroup(const Job& job, const PriorityOf& priority_of);

// The existing PodGroup (full JSON from a GET) updated per spec job-controller.md §4.1 "Update", or
// nullopt if nothing differs. Compared: priorityClassName; minMember and minResources
// (semantically; rewritten together); minTaskMember (missing map, missing or different per-task
// entries; stale keys are kept); subGroupPolicy (an entry per partitioned task that differs, or an
// entry named after a task without partitionPolicy; the list is then rebuilt). Never touched:
// queue, labels, annotations, networkTopology. Throws std::invalid_argument like job_min_resources.
std::optional<nlohmann::json> update_podgroup(const Job& job, const nlohmann::json& existing,
                                              const PriorityOf& priority_of);

// Cheap pre-check on the cached view: true whenever update_podgroup could change something.
// The view does not hold subGroupPolicy, so it answers true for every job with a partitioned
// task, and cannot see a subGroupPolicy entry someone added by hand under the name of an
// unpartitioned task (the controller never writes one).
bool podgroup_may_need_update(const Job& job, const views::PodGroupView& pg,
                              const PriorityOf& priority_of);

// True when the PodGroup exists and the scheduler has moved it past "" / Pending
// (spec job-controller.md §4.1 admission gate).
bool podgroup_admitted(const views::PodGroupView* pg);

}  // namespace vc::controllers::job
