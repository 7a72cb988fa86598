#include "controllers/views/queue_view.h"

namespace vc::controllers::views {

kube::cache::Transform queue_view_transform() {
  return {"queue-view", [](nlohmann::json&& queue) -> kube::cache::ObjectPtr {
            auto out = std::make_shared<volcano::Queue>();
            volcano::decode_queue(queue, *out);
            return out;
          }};
}

volcano::QueuePtr as_queue(const kube::cache::ObjectPtr& object) {
  return std::dynamic_pointer_cast<const volcano::Queue>(object);
}

const volcano::Queue* as_queue(const kube::cache::Object& object) {
  return dynamic_cast<const volcano::Queue*>(&object);
}

}  // namespace vc::controllers::views
