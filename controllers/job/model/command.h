#pragma once
// bus.volcano.sh/v1alpha1 Command as the job controller reads it
// (spec job-controller.md §1.2, §6): the controller acts only on Commands whose `target` is set
// with apiVersion batch.volcano.sh/v1alpha1 and kind Job; it deletes the Command, then enqueues
// {namespace, target.name, CommandIssued, action}. `reason` and `message` are not used. The
// Command is decoded by the shared model (common/volcano/command.h).
//
// Threads: pure functions and plain values.

#include <optional>
#include <string>

#include "common/volcano/command.h"

namespace vc::controllers::job {

struct JobCommand {
  std::string namespace_;  // metadata.namespace: of the Command and of the target Job
  std::string name;        // metadata.name of the Command (what the controller deletes)
  std::string uid;         // metadata.uid of the Command (a delete precondition, if wanted)
  std::string action;      // verbatim, not validated (any string is executed,
                           // spec job-controller.md §2.4)
  std::string target_name;
  std::string target_uid;
  friend bool operator==(const JobCommand&, const JobCommand&) = default;
};

// The command when its target is a batch.volcano.sh/v1alpha1 Job; nullopt otherwise. (A
// Command with a field of the wrong JSON type never gets here: the informer's command-view
// transform skips it, as Go's client would never deliver it.)
std::optional<JobCommand> job_command(const volcano::Command& command);

}  // namespace vc::controllers::job
