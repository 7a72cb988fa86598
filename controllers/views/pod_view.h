#pragma once
// PodView: the compact cached form of a pod, holding only what the queue, pg, gc and job
// controllers read (spec controller-manager.md §3, spec job-controller.md §1.3, §4.2, §4.6).
// Installed on the shared pod informer with pod_view_transform(), so every controller shares one
// watch and one cache of pods (spec controller-manager.md §1.7).
//
// What is kept:
//   - metadata: namespace, name, uid, resourceVersion, all labels (Object), creation and
//     deletion timestamps, deletionGracePeriodSeconds, owner references, and the annotations
//     whose key starts with "volcano.sh/" or "scheduling.volcano.sh/" or is
//     "scheduling.k8s.io/group-name" (the group link, job/task keys, queue name, the keys the
//     pg-controller copies to PodGroups);
//   - spec: schedulerName, nodeName, priorityClassName, and the effective requests and limits
//     (pod_resources.h), computed once here instead of on every read;
//   - status: phase, and per container status its restartCount, ready, and terminated exit
//     code and reason (regular containers in API order, then init containers).
// Interned (intern.h): annotation keys, owner apiVersion/kind, schedulerName, phase, resource
// names.
//
// Threads: a PodView is immutable once cached; read it from any thread.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/api/time.h"
#include "common/kube/cache/object.h"
#include "controllers/views/view_types.h"

namespace vc::controllers::views {

inline constexpr std::string_view kGroupNameAnnotation = "scheduling.k8s.io/group-name";

struct ContainerStatusView {
  std::int32_t restart_count = 0;
  std::int32_t exit_code = 0;  // state.terminated.exitCode when terminated
  bool ready = false;
  bool terminated = false;  // state.terminated is set
  bool init = false;        // from status.initContainerStatuses
  std::string reason;       // state.terminated.reason
};

struct PodView : kube::cache::Object {
  std::string_view phase;  // status.phase
  std::string_view scheduler_name;
  std::string node_name;
  std::string priority_class_name;
  std::optional<api::TimePoint> creation_timestamp;
  std::optional<api::TimePoint> deletion_timestamp;
  std::optional<std::int64_t> deletion_grace_period_seconds;
  Annotations annotations;
  std::vector<OwnerRefView> owner_references;
  std::vector<ContainerStatusView> container_statuses;
  ResourceAmounts requests;  // effective pod requests
  ResourceAmounts limits;    // effective pod limits

  const std::string* annotation(std::string_view key) const {
    return find_annotation(annotations, key);
  }
  // The "scheduling.k8s.io/group-name" annotation, or "".
  std::string_view group_name() const;
  const OwnerRefView* controller_ref() const { return controller_of(owner_references); }
  // Sum of restartCount over init and regular container statuses.
  std::int64_t total_restart_count() const;
  // The exit code of the first regular container status if it is terminated (the job
  // controller's PodFailed exit code).
  std::optional<std::int32_t> first_container_exit_code() const;
  // True when the pod has regular container statuses and all of them are ready.
  bool all_containers_ready() const;
};

using PodViewPtr = std::shared_ptr<const PodView>;

// Whether a pod annotation is kept in the view.
bool keep_pod_annotation(std::string_view key);

// Builds the view from a pod's JSON. Throws std::invalid_argument naming the field on a mistyped
// field (volcano::DecodeError, common/volcano/json_read.h), a malformed quantity or timestamp
// (the reflector logs and skips the pod).
std::shared_ptr<PodView> make_pod_view(const nlohmann::json& pod);

// The members of a pod make_pod_view reads; watch events build only these.
std::shared_ptr<const fastjson::MemberFilter> pod_view_reads();

// The named transform for SharedInformerFactory: every controller asking for pods with it
// shares one informer. It carries pod_view_reads().
kube::cache::Transform pod_view_transform();

// The view of a cached object, or null if it is another type (a programming error upstream:
// an informer set up without pod_view_transform()).
PodViewPtr as_pod_view(const kube::cache::ObjectPtr& obj);

}  // namespace vc::controllers::views
