#pragma once
// PodGroupView: the compact cached form of a scheduling.volcano.sh/v1beta1 PodGroup, projected
// from the typed model (common/volcano/podgroup.h) and holding what the queue, pg and job
// controllers read (spec controller-manager.md §2, §3;
// spec job-controller.md §1.3, §4.1). Installed on the shared PodGroup informer with
// podgroup_view_transform().
//
// A controller that writes a PodGroup back in full (PUT) must start from the API object, not
// from this view: the view drops fields it does not read (networkTopology, subGroupPolicy,
// status.conditions' probe times, ...).
//
// Threads: immutable once cached; read from any thread.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/api/time.h"
#include "common/kube/cache/object.h"
#include "controllers/views/view_types.h"

namespace vc::controllers::views {

struct PodGroupConditionView {
  std::string_view type;    // interned: "Unschedulable", "Scheduled", ...
  std::string_view status;  // interned: "True", "False", "Unknown"
  std::string reason;
  std::string message;
  std::optional<api::TimePoint> last_transition_time;
};

struct PodGroupView : kube::cache::Object {
  // spec
  std::int32_t min_member = 0;
  std::vector<std::pair<std::string, std::int32_t>> min_task_member;  // sorted by task
  std::optional<ResourceAmounts> min_resources;                       // unset when absent
  std::string queue;
  std::string priority_class_name;
  // status
  std::string_view phase;  // interned: "", "Pending", "Inqueue", "Running", ...
  std::vector<PodGroupConditionView> conditions;
  std::int32_t running = 0;
  std::int32_t succeeded = 0;
  std::int32_t failed = 0;
  // metadata
  Annotations annotations;  // all of them
  std::vector<OwnerRefView> owner_references;

  const std::string* annotation(std::string_view key) const {
    return find_annotation(annotations, key);
  }
  const OwnerRefView* controller_ref() const { return controller_of(owner_references); }
};

using PodGroupViewPtr = std::shared_ptr<const PodGroupView>;

// Decodes the PodGroup (volcano::decode_podgroup) and keeps the view of it. Throws
// volcano::DecodeError (a std::invalid_argument) naming the field on a malformed PodGroup.
std::shared_ptr<PodGroupView> make_podgroup_view(const nlohmann::json& podgroup);
kube::cache::Transform podgroup_view_transform();
PodGroupViewPtr as_podgroup_view(const kube::cache::ObjectPtr& obj);

}  // namespace vc::controllers::views
