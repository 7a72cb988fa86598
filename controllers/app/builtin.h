#pragma once
// The controllers vc-cpp implements, registered under Volcano's names
// (spec controller-manager.md §1.9).
//
// Thread-safety: call at start-up.

#include "controllers/framework/registry.h"

namespace vc::controllers::app {

// Adds queue-controller, pg-controller and gc-controller to registry.
void register_builtin_controllers(ControllerRegistry& registry);

}  // namespace vc::controllers::app
