#include "controllers/queue/command.h"

#include <string>

#include "common/kube/resource.h"

namespace vc::controllers::queue {

bool targets_queue(const volcano::Command& command) {
  return command.targets(kube::resources::queues.api_version(), kube::resources::queues.kind);
}

std::optional<Request> command_request(const volcano::Command& command) {
  if (!targets_queue(command) || command.target->name.empty()) return std::nullopt;
  return Request{command.target->name, std::string(kCommandIssuedEvent), command.action};
}

}  // namespace vc::controllers::queue
