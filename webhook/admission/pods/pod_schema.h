#pragma once
// The core/v1 types the pod endpoints decode (k8s.io/api v0.35): the Pod fields the rules read,
// and the Affinity and Toleration types with their JSON tags, for re-encoding configuration
// values the way Go's encoding/json does (go_roundtrip.h). No dependency on the webhook: the
// tables may move to common/ as they are.
//
// Threads: the tables are built once (thread-safe static initialisation) and never change.

#include "common/go/json_types/json_types.h"

namespace vc::webhook::pods {

const go::GoType& pod_type();         // v1.Pod
const go::GoType& affinity_type();    // v1.Affinity
const go::GoType& toleration_type();  // v1.Toleration

}  // namespace vc::webhook::pods
