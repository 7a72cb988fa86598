#include "controllers/podgroup/plan.h"

#include <algorithm>

#include "controllers/podgroup/derive.h"

namespace vc::controllers::podgroup {

namespace {

using nlohmann::json;

std::string string_at(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

bool needs_podgroup(const views::PodView& pod, const std::vector<std::string>& scheduler_names,
                    std::string* why_not) {
  if (std::find(scheduler_names.begin(), scheduler_names.end(), pod.scheduler_name) ==
      scheduler_names.end()) {
    if (why_not) *why_not = "schedulerName \"" + std::string(pod.scheduler_name) + "\" is not ours";
    return false;
  }
  // Only scheduling.k8s.io/group-name counts; scheduling.volcano.sh/group-name is not checked
  // (spec controller-manager.md §3.2 step 3).
  if (!pod.group_name().empty()) {
    if (why_not) *why_not = "already in PodGroup " + std::string(pod.group_name());
    return false;
  }
  return true;
}

PodPlan plan_pod(const views::PodView* pod, bool podgroup_cached,
                 const std::vector<std::string>& scheduler_names) {
  PodPlan plan;
  if (pod == nullptr) {
    plan.skip_reason = "pod not found in the cache";
    return plan;
  }
  if (!needs_podgroup(*pod, scheduler_names, &plan.skip_reason)) return plan;
  plan.podgroup_name = podgroup_name(*pod);
  plan.create_podgroup = !podgroup_cached;
  plan.annotate_pod = true;  // needs_podgroup saw an empty group-name annotation
  return plan;
}

WorkloadPlan plan_workload(const std::string& kind, const json& workload) {
  WorkloadPlan plan;
  const json& meta = workload.contains("metadata") ? workload["metadata"] : json::object();
  plan.namespace_ = string_at(meta, "namespace");
  const json spec = workload.value("spec", json::object());
  // The API server defaults spec.replicas to 1, so an absent value means 1.
  const std::int64_t replicas = spec.contains("replicas") && spec["replicas"].is_number_integer()
                                    ? spec["replicas"].get<std::int64_t>()
                                    : 1;
  if (replicas == 0) {
    plan.action = WorkloadPlan::Action::DeletePodGroup;
    plan.podgroup_name = std::string(kPodGroupNamePrefix) + string_at(meta, "uid");
    return plan;
  }
  // Only matchLabels: matchExpressions are ignored (spec controller-manager.md §3.6, §6.3.11).
  std::vector<std::pair<std::string, std::string>>& terms = plan.match_labels;
  if (auto sel = spec.find("selector"); sel != spec.end() && sel->is_object()) {
    if (auto ml = sel->find("matchLabels"); ml != sel->end() && ml->is_object()) {
      for (const auto& [k, v] : ml->items()) {
        if (v.is_string()) terms.emplace_back(k, v.get<std::string>());
      }
    }
  }
  if (kind == "StatefulSet") {
    const json status = workload.value("status", json::object());
    terms.emplace_back("controller-revision-hash", string_at(status, "updateRevision"));
  }
  for (const auto& [k, v] : terms) {
    if (!plan.label_selector.empty()) plan.label_selector += ',';
    plan.label_selector += k + "=" + v;
  }
  plan.action = WorkloadPlan::Action::SyncFromFirstPod;
  return plan;
}

bool matches(const WorkloadPlan& plan, const views::PodView& pod) {
  return std::all_of(plan.match_labels.begin(), plan.match_labels.end(), [&](const auto& kv) {
    const std::string* v = pod.label(kv.first);
    return v != nullptr && *v == kv.second;
  });
}

}  // namespace vc::controllers::podgroup
