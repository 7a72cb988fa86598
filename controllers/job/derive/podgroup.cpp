#include "controllers/job/derive/podgroup.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "common/api/owner_ref.h"

namespace vc::controllers::job {

namespace {

using nlohmann::json;

json string_map(const std::vector<std::pair<std::string, std::string>>& pairs) {
  json out = json::object();
  for (const auto& [k, v] : pairs) out[k] = v;
  return out;
}

// The PodGroup's networkTopology from the job's: highestTierAllowed wins over highestTierName.
json job_network_topology(const NetworkTopology& nt) {
  json out = json::object();
  if (!nt.mode.empty()) out["mode"] = nt.mode;
  if (nt.highest_tier_allowed) {
    out["highestTierAllowed"] = *nt.highest_tier_allowed;
  } else if (!nt.highest_tier_name.empty()) {
    out["highestTierName"] = nt.highest_tier_name;
  }
  return out;
}

// A partition's networkTopology is copied field by field (both tier fields when set).
json partition_network_topology(const NetworkTopology& nt) {
  json out = json::object();
  if (!nt.mode.empty()) out["mode"] = nt.mode;
  if (nt.highest_tier_allowed) out["highestTierAllowed"] = *nt.highest_tier_allowed;
  if (!nt.highest_tier_name.empty()) out["highestTierName"] = nt.highest_tier_name;
  return out;
}

bool same_resources(const api::ResourceList& a, const api::ResourceList& b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
           return x.first == y.first && x.second == y.second;
         });
}

}  // namespace

std::string podgroup_name(const Job& job) {
  return job.name + "-" + job.uid;
}

std::int32_t min_task_member(const TaskSpec& task) {
  if (task.min_available) return *task.min_available;
  if (task.partition_policy && task.partition_policy->min_partitions != 0 &&
      task.partition_policy->partition_size != 0) {
    return task.partition_policy->min_partitions * task.partition_policy->partition_size;
  }
  return task.replicas;
}

json subgroup_policy(const TaskSpec& task) {
  json out = json::object();
  if (!task.name.empty()) out["name"] = task.name;
  if (!task.partition_policy) return out;
  const PartitionPolicy& p = *task.partition_policy;
  out["subGroupSize"] = p.partition_size;
  out["minSubGroups"] = p.min_partitions;
  out["labelSelector"] = {{"matchLabels", {{keys::kTaskSpec, task.name}}}};
  out["matchLabelKeys"] = json::array({keys::kPartitionId});
  if (p.network_topology) out["networkTopology"] = partition_network_topology(*p.network_topology);
  return out;
}

json build_podgroup(const Job& job, const PriorityOf& priority_of) {
  json metadata = {
      {"name", podgroup_name(job)},
      {"namespace", job.namespace_},
      {"ownerReferences",
       json::array({api::make_controller_ref(kJobApiVersion, kJobKind, job.name, job.uid)})}};
  if (!job.annotations.empty()) metadata["annotations"] = string_map(job.annotations);
  if (!job.labels.empty()) metadata["labels"] = string_map(job.labels);

  json spec = json::object();
  // Zero and empty values are left out, as Go's omitempty does.
  if (job.spec.min_available != 0) spec["minMember"] = job.spec.min_available;
  json min_task = json::object();
  for (const TaskSpec& task : job.spec.tasks) min_task[task.name] = min_task_member(task);
  if (!min_task.empty()) spec["minTaskMember"] = std::move(min_task);
  if (!job.spec.queue.empty()) spec["queue"] = job.spec.queue;
  if (!job.spec.priority_class_name.empty()) {
    spec["priorityClassName"] = job.spec.priority_class_name;
  }
  // Always present (a non-nil pointer in Volcano), even when empty.
  spec["minResources"] = job_min_resources(job, priority_of);
  if (job.spec.network_topology) {
    spec["networkTopology"] = job_network_topology(*job.spec.network_topology);
  }
  json subgroups = json::array();
  for (const TaskSpec& task : job.spec.tasks) {
    if (task.partition_policy) subgroups.push_back(subgroup_policy(task));
  }
  if (!subgroups.empty()) spec["subGroupPolicy"] = std::move(subgroups);

  return {{"apiVersion", kPodGroupApiVersion},
          {"kind", kPodGroupKind},
          {"metadata", std::move(metadata)},
          {"spec", std::move(spec)}};
}

bool podgroup_may_need_update(const Job& job, const views::PodGroupView& pg,
                              const PriorityOf& priority_of) {
  if (pg.priority_class_name != job.spec.priority_class_name) return true;
  if (pg.min_member != job.spec.min_available) return true;
  // The view cannot tell an absent minTaskMember from an empty one; absent means an update.
  if (pg.min_task_member.empty()) return true;
  for (const TaskSpec& task : job.spec.tasks) {
    if (task.partition_policy) return true;  // subGroupPolicy is not in the view
    auto it = std::lower_bound(pg.min_task_member.begin(), pg.min_task_member.end(), task.name,
                               [](const std::pair<std::string, std::int32_t>& e,
                                  const std::string& n) { return e.first < n; });
    if (it == pg.min_task_member.end() || it->first != task.name) return true;
    if (it->second != min_task_member(task)) return true;
  }
  // Last: it parses every task template.
  if (!pg.min_resources) return true;
  return !same_resources(views::to_resource_list(*pg.min_resources),
                         job_min_resources(job, priority_of));
}

bool podgroup_admitted(const views::PodGroupView* pg) {
  return pg != nullptr && !pg->phase.empty() && pg->phase != "Pending";
}

}  // namespace vc::controllers::job
