#pragma once
// scheduling.volcano.sh/v1beta1 PodGroup, typed, decoded with the rules of json_read.h. The
// controllers cache a compact projection of it (controllers/views/podgroup_view.h); the model
// is what every reader of a PodGroup decodes.
//
// Threads: plain values.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/owner_ref.h"
#include "common/api/resource_list.h"
#include "common/api/time.h"
#include "common/volcano/job.h"
#include "common/volcano/json_read.h"
#include "common/volcano/meta_types.h"
#include "common/volcano/object_meta.h"

namespace vc::volcano {

struct SubGroupPolicy {
  std::string name;
  std::optional<NetworkTopology> network_topology;
  std::optional<std::int32_t> sub_group_size;
  std::optional<std::int32_t> min_sub_groups;
  std::optional<LabelSelector> label_selector;
  std::vector<std::string> match_label_keys;
  friend bool operator==(const SubGroupPolicy&, const SubGroupPolicy&) = default;
};

struct PodGroupSpec {
  std::int32_t min_member = 0;
  std::map<std::string, std::int32_t> min_task_member;
  std::optional<api::ResourceList> min_resources;  // unset when absent (Go's nil pointer)
  std::string queue;
  std::string priority_class_name;
  std::optional<NetworkTopology> network_topology;
  std::vector<SubGroupPolicy> sub_group_policy;
};

// v1beta1.PodGroupCondition (not metav1.Condition: it has a transitionID).
struct PodGroupCondition {
  std::string type;    // "Unschedulable", "Scheduled", ...
  std::string status;  // "True", "False", "Unknown"
  std::string transition_id;
  std::optional<api::TimePoint> last_transition_time;
  std::string reason;
  std::string message;
  friend bool operator==(const PodGroupCondition&, const PodGroupCondition&) = default;
};

struct PodGroupStatus {
  std::string phase;  // "", "Pending", "Inqueue", "Running", "Unknown", "Completed"
  std::vector<PodGroupCondition> conditions;
  std::int32_t running = 0;
  std::int32_t succeeded = 0;
  std::int32_t failed = 0;
};

struct PodGroup : ObjectMeta {
  std::vector<api::OwnerRef> owner_references;  // metadata.ownerReferences
  PodGroupSpec spec;
  PodGroupStatus status;
};

// Throws DecodeError naming the field.
void decode_podgroup(const nlohmann::json& podgroup, PodGroup& out,
                     const FieldPath& root = FieldPath());

}  // namespace vc::volcano
