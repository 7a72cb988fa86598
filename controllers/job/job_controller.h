#pragma once
// The job-controller factory the controller-manager registers (see
// controllers/framework/controller.h and spec job-controller.md §1).

#include <memory>

#include "controllers/framework/controller.h"

namespace vc::controllers::job {

std::unique_ptr<Controller> make_job_controller();

}  // namespace vc::controllers::job
