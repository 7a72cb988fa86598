#pragma once
// The effective requests and limits of a pod, computed as Kubernetes' resource helpers do
// (k8s.io/component-helpers/resource PodRequests / PodLimits) for the quota evaluator that
// Volcano's pg-controller uses to fill PodGroup minResources (spec controller-manager.md §3.3):
//   - regular containers are summed;
//   - init containers run one after another, so the pod needs the largest of them; a sidecar
//     (init container with restartPolicy Always) keeps running, so it is added to the sum and to
//     every later init container;
//   - spec.overhead is added to requests, and to the limits that are set;
//   - pod-level spec.resources, when set, replace the cpu and memory totals.
// From those, the quota usage of the pod as Kubernetes' pod evaluator counts it, with Volcano's
// extra unprefixed keys (used by both the pg-controller and the Job controller's minResources).
// Quantities keep Kubernetes' printing: a value copied unchanged keeps its remembered text, a
// sum is printed canonically (so a single container's "500m" stays "500m").
//
// Not modelled (see the compat notes): requests read from status.containerStatuses[].resources
// during an in-place resize.
//
// Threads: pure functions.

#include <nlohmann/json.hpp>

#include "common/api/resource_list.h"

namespace vc::controllers::views {

// spec is the pod's "spec" object. Throws std::invalid_argument for a malformed quantity (the
// API server never stores one) and nlohmann::json::type_error for mistyped fields.
api::ResourceList pod_requests(const nlohmann::json& spec);
api::ResourceList pod_limits(const nlohmann::json& spec);

// Kubernetes' quota usage of one pod that is still running (neither terminal nor past its
// deletion grace period), given its effective requests and limits as above: count/pods and pods;
// cpu, memory and ephemeral-storage under their bare and requests. names, and limits.<X> for
// their limits; hugepages-<size> and requests.hugepages-<size>; requests.<X> for every extended
// resource X. Values are copies, so they keep their printed text.
api::ResourceList quota_pod_usage(const api::ResourceList& requests,
                                  const api::ResourceList& limits);

// Volcano's addition to quota usage (its GetPodQuotaUsage): every non-native requests.<X> in
// `usage` is also counted as <X>. Adding it to one pod's usage and then summing gives the same
// list as summing first.
void add_unprefixed_requests(api::ResourceList& usage);

}  // namespace vc::controllers::views
