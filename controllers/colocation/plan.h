#pragma once
// One sync of a pod, decided from a snapshot (spec controller-manager.md §5.6 "Sync of a pod"):
// which ColocationConfiguration governs the pod, and which annotations must change so the pod
// carries that configuration (or the reset marker once none selects it). The executor
// (executor.h) writes the change.
//
// Threads: pure functions over plain data.

#include <optional>
#include <string>
#include <vector>

#include "common/kube/cache/object.h"
#include "controllers/colocation/config_view.h"

namespace vc::controllers::colocation {

// The two annotations as the pod carries them (nullopt: absent).
struct PodAnnotations {
  std::optional<std::string> config_name;  // volcano.sh/colocation-config-name
  std::optional<std::string> config;       // volcano.sh/colocation-config
};

// The configuration governing a pod with these labels: of the configurations of the pod's
// namespace, the newest by creation time whose selector selects the pod; configurations created
// at the same time go by name (Volcano leaves that order undefined, docs/compat.md). Null: none.
const ColocationConfigView* governing_configuration(
    const kube::cache::Labels& pod_labels,
    const std::vector<const ColocationConfigView*>& namespace_configs);

// The pod's annotations after the sync, when they differ from `current`: with a governing
// configuration both are set; without one the name is removed and the configuration set to
// kResetValue. Nullopt: nothing to write.
struct AnnotationChange {
  std::optional<std::string> config_name;  // nullopt: remove it
  std::string config;
};
std::optional<AnnotationChange> plan_pod(const PodAnnotations& current,
                                         const ColocationConfigView* governing);

}  // namespace vc::controllers::colocation
