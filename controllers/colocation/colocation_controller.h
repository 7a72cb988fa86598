#pragma once
// The colocation-config-controller factory the controller-manager registers (see
// controllers/framework/controller.h).
//
// colocation-config-controller stamps the ColocationConfiguration that selects a pod onto the
// pod's annotations, and resets them once none does (spec controller-manager.md §5.6).
// plan.h decides, executor.h writes.

#include <memory>

#include "controllers/framework/controller.h"

namespace vc::controllers::colocation {

inline constexpr const char* kControllerName = "colocation-config-controller";

std::unique_ptr<Controller> make_colocation_controller();

}  // namespace vc::controllers::colocation
