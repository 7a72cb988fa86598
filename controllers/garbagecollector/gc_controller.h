#pragma once
// The gc-controller factory the controller-manager registers (see
// controllers/framework/controller.h).
//
// gc-controller deletes Volcano Jobs whose spec.ttlSecondsAfterFinished has passed since they
// finished (spec controller-manager.md §4): decision.h is the rule, cleaner.h the API side.

#include <functional>
#include <memory>

#include "common/api/time.h"
#include "common/kube/workqueue/clock.h"
#include "controllers/framework/controller.h"

namespace vc::controllers::gc {

inline constexpr const char* kControllerName = "gc-controller";

// Seams for tests; production code uses the defaults.
struct GcControllerOptions {
  std::function<api::TimePoint()> now;            // wall clock for TTLs; null = system_clock
  std::shared_ptr<kube::workqueue::Clock> clock;  // work-queue delays; null = real clock
};

std::unique_ptr<Controller> make_gc_controller();
std::unique_ptr<Controller> make_gc_controller(GcControllerOptions options);

}  // namespace vc::controllers::gc
