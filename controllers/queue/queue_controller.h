#pragma once
// The queue-controller factory the controller-manager registers (see
// controllers/framework/controller.h).

#include <memory>

#include "controllers/framework/controller.h"

namespace vc::controllers::queue {

std::unique_ptr<Controller> make_queue_controller();

}  // namespace vc::controllers::queue
