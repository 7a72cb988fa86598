#pragma once
// The podgroup-controller factory the controller-manager registers (see
// controllers/framework/controller.h).

#include <memory>

#include "controllers/framework/controller.h"

namespace vc::controllers::podgroup {

std::unique_ptr<Controller> make_podgroup_controller();

}  // namespace vc::controllers::podgroup
