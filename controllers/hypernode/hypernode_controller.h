#pragma once
// The hyperNode-controller factory the controller-manager registers (see
// controllers/framework/controller.h).
//
// hyperNode-controller keeps the network topology tree of topology.volcano.sh HyperNodes
// (spec controller-manager.md §5.5): it discovers HyperNodes from node labels or an NVIDIA UFM
// server as its ConfigMap says (discovery_config.h, sources.h, label_topology.h, ufm_topology.h,
// ufm_client.h), reconciles each result with the HyperNodes the source owns (reconcile_plan.h,
// executor.h), and keeps every HyperNode's status.nodeCount (node_count.h).

#include <memory>

#include "controllers/framework/controller.h"

namespace vc::controllers::hypernode {

inline constexpr const char* kControllerName = "hyperNode-controller";

std::unique_ptr<Controller> make_hypernode_controller();

}  // namespace vc::controllers::hypernode
