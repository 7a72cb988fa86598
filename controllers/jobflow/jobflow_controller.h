#pragma once
// The jobflow-controller factory the controller-manager registers (see
// controllers/framework/controller.h).
//
// jobflow-controller runs a JobFlow's DAG of JobTemplates as Volcano Jobs
// (spec controller-manager.md §5.2): plan.h decides a sync from the caches, executor.h
// performs it.

#include <memory>

#include "controllers/framework/controller.h"
#include "controllers/jobflow/prober.h"

namespace vc::controllers::jobflow {

inline constexpr const char* kControllerName = "jobflow-controller";

// Seams for tests (`now` stamps the running histories; `prober` sets the probe timing, used
// with --jobflow-probes); production code uses the defaults.
struct JobFlowControllerOptions : ClockSeams {
  ProberOptions prober{};
};

std::unique_ptr<Controller> make_jobflow_controller();
std::unique_ptr<Controller> make_jobflow_controller(JobFlowControllerOptions options);

}  // namespace vc::controllers::jobflow
