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

namespace {

std::string string_at(const json& object, const char* a, const char* b) {
  auto outer = object.find(a);
  if (outer == object.end() || !outer->is_object()) return {};
  auto inner = outer->find(b);
  if (inner == outer->end() || !inner->is_string()) return {};
  return inner->get<std::string>();
}

}  // namespace

kube::events::ObjectReference QueueInfo::reference() const {
  kube::events::ObjectReference ref;
  ref.kind = std::string(kube::resources::queues.kind);
  ref.api_version = kube::resources::queues.api_version();
  ref.name = name;
  ref.uid = uid;
  ref.resource_version = resource_version;
  return ref;
}

QueueInfo queue_info_from_json(const json& queue) {
  QueueInfo q;
  q.name = string_at(queue, "metadata", "name");
  q.uid = string_at(queue, "metadata", "uid");
  q.resource_version = string_at(queue, "metadata", "resourceVersion");
  q.parent = string_at(queue, "spec", "parent");
  q.state = string_at(queue, "status", "state");
  auto meta = queue.find("metadata");
  if (meta != queue.end() && meta->is_object()) {
    auto annotations = meta->find("annotations");
    if (annotations != meta->end() && annotations->is_object()) {
      auto v = annotations->find(std::string(kClosedByParentAnnotation));
      if (v != annotations->end() && v->is_string()) q.closed_by_parent = v->get<std::string>();
    }
  }
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
