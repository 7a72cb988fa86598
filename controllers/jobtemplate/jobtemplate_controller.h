#pragma once
// The jobtemplate-controller factory the controller-manager registers (see
// controllers/framework/controller.h).
//
// jobtemplate-controller keeps a JobTemplate's status.jobDependsOnList: the Volcano Jobs a
// JobFlow made from it (spec controller-manager.md §5.3). plan.h decides, executor.h writes.

#include <memory>

#include "controllers/framework/controller.h"

namespace vc::controllers::jobtemplate {

inline constexpr const char* kControllerName = "jobtemplate-controller";

std::unique_ptr<Controller> make_jobtemplate_controller();

}  // namespace vc::controllers::jobtemplate
