#include "controllers/queue/command.h"

#include <string>

#include "common/kube/resource.h"

namespace vc::controllers::queue {

using nlohmann::json;

namespace {

std::string string_field(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

bool targets_queue(const json& command) {
  auto target = command.find("target");
  if (target == command.end() || !target->is_object()) return false;
  return string_field(*target, "apiVersion") == kube::resources::queues.api_version() &&
         string_field(*target, "kind") == kube::resources::queues.kind;
}

std::optional<Request> command_request(const json& command) {
  if (!command.is_object() || !targets_queue(command)) return std::nullopt;
  std::string queue = string_field(command["target"], "name");
  if (queue.empty()) return std::nullopt;
  return Request{std::move(queue), std::string(kCommandIssuedEvent),
                 string_field(command, "action")};
}

}  // namespace vc::controllers::queue
