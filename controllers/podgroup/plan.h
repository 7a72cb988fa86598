#pragma once
// What the pg-controller does for one pod request (spec controller-manager.md §3.2, §3.4) and for
// one ReplicaSet/StatefulSet event (spec controller-manager.md §3.6), decided from cache snapshots
// as plain data.
//
// Threads: pure functions; callable from any thread.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "controllers/views/pod_view.h"

namespace vc::controllers::podgroup {

struct PodPlan {
  // Empty when there is work to do; otherwise why the pod is left alone (for debug logs).
  std::string skip_reason;
  std::string podgroup_name;
  bool create_podgroup = false;  // no PodGroup of that name in the cache
  bool annotate_pod = false;     // the pod's group-name annotation is empty
};

// True when the pod is handled by one of our schedulers and has no group-name annotation.
bool needs_podgroup(const views::PodView& pod, const std::vector<std::string>& scheduler_names,
                    std::string* why_not = nullptr);

// pod is null when the pod is gone from the cache. podgroup_cached says whether a PodGroup with
// the derived name is in the PodGroup cache (the pod path never modifies an existing one).
PodPlan plan_pod(const views::PodView* pod, bool podgroup_cached,
                 const std::vector<std::string>& scheduler_names);

// One ReplicaSet or StatefulSet event (spec controller-manager.md §3.6).
struct WorkloadPlan {
  enum class Action {
    None,
    DeletePodGroup,    // replicas == 0: delete podgroup-<uid>
    SyncFromFirstPod,  // replicas > 0: create or update the PodGroup from the first pod
  } action = Action::None;
  std::string namespace_;
  std::string podgroup_name;  // for DeletePodGroup
  // spec.selector.matchLabels, plus controller-revision-hash=<status.updateRevision> for a
  // StatefulSet; as pairs and as a label selector string "k=v,...".
  std::vector<std::pair<std::string, std::string>> match_labels;
  std::string label_selector;
};

// True when the pod carries every label of plan.match_labels.
bool matches(const WorkloadPlan& plan, const views::PodView& pod);

// kind is "ReplicaSet" or "StatefulSet"; workload is the object's JSON.
WorkloadPlan plan_workload(const std::string& kind, const nlohmann::json& workload);

}  // namespace vc::controllers::podgroup
