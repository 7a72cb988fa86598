#include "controllers/queue/command.h"

#include <string>

#include "common/kube/resource.h"
#include "common/volcano/command.h"

namespace vc::controllers::queue {

using nlohmann::json;

namespace {

// The Command when it decodes and targets a Queue.
std::optional<volcano::Command> queue_command(const json& command) {
  auto decoded = volcano::command_from_json(command);
  if (!decoded ||
      !decoded->targets(kube::resources::queues.api_version(), kube::resources::queues.kind)) {
    return std::nullopt;
  }
  return std::move(*decoded);
}

}  // namespace

bool targets_queue(const json& command) {
  return queue_command(command).has_value();
}

std::optional<Request> command_request(const json& command) {
  std::optional<volcano::Command> c = queue_command(command);
  if (!c || c->target->name.empty()) return std::nullopt;
  return Request{std::move(c->target->name), std::string(kCommandIssuedEvent),
                 std::move(c->action)};
}

}  // namespace vc::controllers::queue
