#pragma once
// The cronjob-controller factory the controller-manager registers (see
// controllers/framework/controller.h).
//
// cronjob-controller makes Volcano Jobs from batch.volcano.sh CronJobs on their schedules
// (spec controller-manager.md §5.4): schedule_times.h is the missed-run arithmetic, plan.h
// decides a sync from the caches, executor.h performs it.

#include <memory>

#include "controllers/framework/controller.h"

namespace vc::controllers::cronjob {

inline constexpr const char* kControllerName = "cronjob-controller";

// Seams for tests (`now` is the clock schedules run on); production code uses the defaults.
using CronJobControllerOptions = ClockSeams;

std::unique_ptr<Controller> make_cronjob_controller();
std::unique_ptr<Controller> make_cronjob_controller(CronJobControllerOptions options);

}  // namespace vc::controllers::cronjob
