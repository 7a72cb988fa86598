#include "controllers/job/model/command.h"

#include "controllers/job/model/job.h"

namespace vc::controllers::job {

std::optional<JobCommand> job_command(const volcano::Command& c) {
  if (!c.targets(kJobApiVersion, kJobKind)) return std::nullopt;
  return JobCommand{c.namespace_, c.name, c.uid, c.action, c.target->name, c.target->uid};
}

}  // namespace vc::controllers::job
