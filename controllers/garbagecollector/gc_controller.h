#pragma once
// The gc-controller factory the controller-manager registers (see
// controllers/framework/controller.h).
//
// gc-controller deletes Volcano Jobs whose spec.ttlSecondsAfterFinished has passed since they
// finished (spec controller-manager.md §4): decision.h is the rule, cleaner.h the API side.

#include <memory>

#include "controllers/framework/controller.h"

namespace vc::controllers::gc {

inline constexpr const char* kControllerName = "gc-controller";

// Seams for tests (`now` is the clock TTLs are measured on); production code uses the defaults.
using GcControllerOptions = ClockSeams;

std::unique_ptr<Controller> make_gc_controller();
std::unique_ptr<Controller> make_gc_controller(GcControllerOptions options);

}  // namespace vc::controllers::gc
