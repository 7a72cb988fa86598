#pragma once
// The pod admission endpoints (spec webhook.md §2.7, §2.8): pure functions of (request, cluster
// view, options). Each first checks the request's resource ({ v1 pods}), then decodes the pod
// as Volcano does, then applies its rules. Neither throws.
//
// Threads: callable concurrently from any thread.

#include "webhook/admission/endpoint.h"

namespace vc::webhook::pods {

inline const GroupVersionResource kPodsResource{"", "v1", "pods"};

// /pods/mutate: CREATE only. With a pod admission configuration loaded, adds the queue
// allocation scheduling gate (feature gate and opt-in annotation), then applies the first
// resource group the pod belongs to: node selector labels, affinity, tolerations and scheduler
// name. Without a configuration nothing is patched.
AdmissionResponse admit_pods_mutate(const AdmissionRequest& request, const ClusterView& view,
                                    const AdmissionOptions& options);

// /pods/validate: CREATE only. Pods of a Volcano scheduler may carry at most one of the
// jdb-min-available / jdb-max-unavailable annotations, as a positive integer or a 1%-99%
// percentage.
AdmissionResponse admit_pods_validate(const AdmissionRequest& request, const ClusterView& view,
                                      const AdmissionOptions& options);

}  // namespace vc::webhook::pods
