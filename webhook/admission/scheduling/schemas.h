#pragma once
// The Go types Volcano decodes scheduling admission objects into (volcano.sh/apis v1.15), for
// go::check_go_types. No dependency on the webhook: the tables may move to common/ as they are.
//
// Threads: the tables are built once (thread-safe static initialisation) and never change.

#include "common/go/json_types/json_types.h"

namespace vc::webhook::scheduling {

const go::GoType& queue_type();      // v1beta1.Queue
const go::GoType& podgroup_type();   // v1beta1.PodGroup
const go::GoType& hypernode_type();  // v1alpha1.HyperNode

}  // namespace vc::webhook::scheduling
