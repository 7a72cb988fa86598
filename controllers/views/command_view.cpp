#include "controllers/views/command_view.h"

namespace vc::controllers::views {

kube::cache::Transform command_view_transform() {
  return {"command-view", [](nlohmann::json&& command) -> kube::cache::ObjectPtr {
            auto out = std::make_shared<volcano::Command>();
            volcano::decode_command(command, *out);
            return out;
          }};
}

std::shared_ptr<const volcano::Command> as_command(const kube::cache::ObjectPtr& object) {
  return std::dynamic_pointer_cast<const volcano::Command>(object);
}

}  // namespace vc::controllers::views
