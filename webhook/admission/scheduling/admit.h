#pragma once
// The scheduling.volcano.sh and topology.volcano.sh admission endpoints
// (spec webhook.md §2.3-§2.6, §2.11): pure functions of (request, cluster view, options). Each
// first checks the request's resource, then decodes the object as Volcano does (a field of the
// wrong JSON type is denied with Go's decode message), then applies the endpoint's rules. None of
// them throws.
//
// Where a rule needs a cluster lookup and the view is offline (ClusterView::online() false),
// the rule is skipped and the response carries a warning saying so.
//
// Threads: callable concurrently from any thread (the view must allow concurrent reads).

#include "webhook/admission/endpoint.h"

namespace vc::webhook::scheduling {

inline const GroupVersionResource kQueuesResource{"scheduling.volcano.sh", "v1beta1", "queues"};
inline const GroupVersionResource kPodGroupsResource{"scheduling.volcano.sh", "v1beta1",
                                                     "podgroups"};
inline const GroupVersionResource kHyperNodesResource{"topology.volcano.sh", "v1alpha1",
                                                      "hypernodes"};

// /podgroups/mutate: CREATE only. A PodGroup in the "default" queue takes the queue named by its
// namespace's "scheduling.volcano.sh/queue-name" annotation, when the namespace has one.
AdmissionResponse admit_podgroups_mutate(const AdmissionRequest& request, const ClusterView& view,
                                         const AdmissionOptions& options);

// /podgroups/validate: CREATE only. The queue must exist and be Open; networkTopology may not set
// both highestTierAllowed and highestTierName.
AdmissionResponse admit_podgroups_validate(const AdmissionRequest& request, const ClusterView& view,
                                           const AdmissionOptions& options);

// /queues/mutate: CREATE only. Roots the hierarchy annotations, defaults reclaimable and weight.
AdmissionResponse admit_queues_mutate(const AdmissionRequest& request, const ClusterView& view,
                                      const AdmissionOptions& options);

// /queues/validate: CREATE, UPDATE (fields, parent, root protection, hierarchy resources) and
// DELETE (default/root, cache presence, allocated pods, child queues).
AdmissionResponse admit_queues_validate(const AdmissionRequest& request, const ClusterView& view,
                                        const AdmissionOptions& options);

// /hypernodes/validate: CREATE and UPDATE need members and valid regexMatch patterns; any other
// operation is allowed.
AdmissionResponse admit_hypernodes_validate(const AdmissionRequest& request,
                                            const ClusterView& view,
                                            const AdmissionOptions& options);

}  // namespace vc::webhook::scheduling
