#pragma once
// The colocation-config-controller's executor: one merge patch of a pod's two colocation
// annotations, carrying the cached resourceVersion, so a stale cache gets a Conflict and the
// pod is synced again, as Volcano's full update of the cached pod does
// (spec controller-manager.md §5.6 step 5). A pod deleted meanwhile counts as done.
//
// Threads: called from the controller's worker; blocks on the API call.

#include <string>

#include <nlohmann/json.hpp>

#include "common/kube/client.h"
#include "controllers/colocation/plan.h"

namespace vc::controllers::colocation {

// The merge patch body for a change of the pod at resourceVersion `resource_version`.
nlohmann::json annotation_patch(const AnnotationChange& change,
                                const std::string& resource_version);

// "" on success (NotFound included), else what failed.
std::string write_annotations(kube::Client& client, const std::string& pod_namespace,
                              const std::string& pod_name, const std::string& resource_version,
                              const AnnotationChange& change);

}  // namespace vc::controllers::colocation
