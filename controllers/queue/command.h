#pragma once
// The command decision (spec controller-manager.md §2.2, §2.3): which bus.volcano.sh Commands
// the queue controller acts on, and the request each one becomes once it has been deleted.
//
// Pure functions; callable from any thread.

#include <optional>

#include "common/volcano/command.h"

#include "controllers/queue/model.h"

namespace vc::controllers::queue {

// True when the command's target is a Queue: target.apiVersion exactly
// scheduling.volcano.sh/v1beta1 and target.kind Queue. (A Command with a member of the wrong
// JSON type never gets here: the informer's command-view transform skips it, as Go's client
// would never deliver it.)
bool targets_queue(const volcano::Command& command);

// {target.name, CommandIssued, action verbatim} for a command that targets a queue by name;
// null otherwise. The action is not validated: anything but OpenQueue/CloseQueue syncs.
std::optional<Request> command_request(const volcano::Command& command);

}  // namespace vc::controllers::queue
