#pragma once
// The Go types Volcano decodes scheduling admission objects into (volcano.sh/apis v1.15), as
// GoType trees for go_decode_error, and the resources each endpoint expects.
//
// Threads: the trees are built once (thread-safe static initialisation) and never change.

#include "webhook/admission/review.h"
#include "webhook/admission/scheduling/go_decode.h"

namespace vc::webhook::scheduling {

inline const GroupVersionResource kQueuesResource{"scheduling.volcano.sh", "v1beta1", "queues"};
inline const GroupVersionResource kPodGroupsResource{"scheduling.volcano.sh", "v1beta1",
                                                     "podgroups"};
inline const GroupVersionResource kHyperNodesResource{"topology.volcano.sh", "v1alpha1",
                                                      "hypernodes"};

const GoType& queue_type();      // v1beta1.Queue
const GoType& podgroup_type();   // v1beta1.PodGroup
const GoType& hypernode_type();  // v1alpha1.HyperNode

}  // namespace vc::webhook::scheduling
