#pragma once
// The core/v1 types the pod endpoints decode (k8s.io/api v0.35): the Pod fields the rules read,
// and the Affinity and Toleration types with their JSON tags, for re-encoding configuration
// values the way Go's encoding/json does.
//
// Threads: the trees are built once (thread-safe static initialisation) and never change.

#include "webhook/admission/review.h"
#include "webhook/admission/scheduling/go_decode.h"

namespace vc::webhook::pods {

using scheduling::GoType;

inline const GroupVersionResource kPodsResource{"", "v1", "pods"};

const GoType& pod_type();         // v1.Pod
const GoType& affinity_type();    // v1.Affinity
const GoType& toleration_type();  // v1.Toleration

}  // namespace vc::webhook::pods
