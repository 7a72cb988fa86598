#include "controllers/job/model/command.h"

#include "common/volcano/command.h"
#include "controllers/job/model/job.h"

namespace vc::controllers::job {

std::optional<JobCommand> job_command_from_json(const nlohmann::json& command) {
  auto decoded = volcano::command_from_json(command);
  if (!decoded || !decoded->targets(kJobApiVersion, kJobKind)) return std::nullopt;
  volcano::Command& c = *decoded;
  return JobCommand{std::move(c.namespace_), std::move(c.name),         std::move(c.uid),
                    std::move(c.action),     std::move(c.target->name), std::move(c.target->uid)};
}

}  // namespace vc::controllers::job
