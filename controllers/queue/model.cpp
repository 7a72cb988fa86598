#include "controllers/queue/model.h"

#include "common/kube/resource.h"
#include "common/kube/workqueue/key_hash.h"

namespace vc::controllers::queue {

using nlohmann::json;

std::size_t RequestHash::operator()(const Request& r) const {
  std::size_t seed = std::hash<std::string>{}(r.queue);
  kube::workqueue::hash_combine(seed, r.event);
  kube::workqueue::hash_combine(seed, r.action);
  return seed;
}

std::string describe(const Request& r) {
  std::string text;
  text.reserve(r.event.size() + r.action.size() + r.queue.size() + 2);
  text.append(r.event).append("/").append(r.action).append("/").append(r.queue);
  return text;
}

kube::events::ObjectReference QueueInfo::reference() const {
  kube::events::ObjectReference ref;
  ref.kind = std::string(kube::resources::queues.kind);
  ref.api_version = kube::resources::queues.api_version();
  ref.name = name;
  ref.uid = uid;
  ref.resource_version = resource_version;
  return ref;
}

QueueInfo queue_info(const volcano::Queue& queue) {
  QueueInfo q;
  q.name = queue.name;
  q.uid = queue.uid;
  q.resource_version = queue.resource_version;
  q.parent = queue.spec.parent;
  q.state = queue.status.state;
  if (const std::string* v = queue.annotation(kClosedByParentAnnotation)) q.closed_by_parent = *v;
  return q;
}

PhaseCounts count_phases(const std::vector<std::string>& phases) {
  PhaseCounts c;
  for (const std::string& p : phases) {
    if (p == "Pending") {
      ++c.pending;
    } else if (p == "Running") {
      ++c.running;
    } else if (p == "Unknown") {
      ++c.unknown;
    } else if (p == "Inqueue") {
      ++c.inqueue;
    } else if (p == "Completed") {
      ++c.completed;
    }
  }
  return c;
}

}  // namespace vc::controllers::queue
