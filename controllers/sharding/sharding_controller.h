#pragma once
// The sharding-controller factory the controller-manager registers (see
// controllers/framework/controller.h).
//
// sharding-controller splits the cluster's nodes between scheduler instances by writing one
// shard.volcano.sh NodeShard per configured scheduler (spec controller-manager.md §5.7): its
// configuration comes from --scheduler-configs or the sharding ConfigMap (config.h), node
// utilization from the cached pods (utilization.h), the assignment from the policies
// (policies.h), and the writes from plan.h through executor.h. Off by default.

#include <memory>

#include "controllers/framework/controller.h"

namespace vc::controllers::sharding {

inline constexpr const char* kControllerName = "sharding-controller";

std::unique_ptr<Controller> make_sharding_controller();

}  // namespace vc::controllers::sharding
