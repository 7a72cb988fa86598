#include "webhook/app/informer_cluster_view.h"

#include "common/api/label_validation.h"
#include "common/go/strconv.h"
#include "common/log/log.h"

namespace vc::webhook::app {
namespace {

using kube::cache::JsonObject;
using kube::cache::ObjectPtr;

// The cached JSON, sharing ownership with the cache entry. Objects come from the default
// transform, so they are JsonObjects; anything else is a wiring mistake.
QueuePtr as_queue(const ObjectPtr& object) {
  const auto* json_object = dynamic_cast<const JsonObject*>(object.get());
  if (!json_object) throw std::logic_error("queue informer must use the default JSON transform");
  return QueuePtr(object, &json_object->json);
}

std::string not_found(std::string_view name) {
  return "queue.scheduling.volcano.sh " + go::quote(name) + " not found";
}

}  // namespace

void add_queue_parent_index(kube::cache::Informer& queues) {
  queues.add_indexer(kQueueParentIndex, [](const kube::cache::Object& object) {
    std::vector<std::string> out;
    const auto* queue = dynamic_cast<const JsonObject*>(&object);
    if (!queue) return out;
    if (const auto parent = queue_parent(queue->json); !parent.empty()) {
      out.emplace_back(parent);
    }
    return out;
  });
}

InformerClusterView::InformerClusterView(kube::Client& client,
                                         std::shared_ptr<const kube::cache::Informer> queues)
    : client_(client), queues_(std::move(queues)) {}

api::Expected<QueuePtr> InformerClusterView::get_queue(std::string_view name) const {
  // An empty name would turn the live GET into a LIST; the lister finds nothing under "".
  if (name.empty()) return api::Unexpected{not_found(name)};
  if (auto cached = queues_->store().get(std::string(name))) return as_queue(cached);
  auto live = client_.get(kube::resources::queues, "", name);
  if (live.ok()) {
    VC_LOG_DEBUG("queue missing from the cache was read from the API server", kv("queue", name));
    auto& object = live.value();
    if (auto m = object.find("metadata"); m != object.end() && m->is_object()) {
      m->erase("managedFields");
    }
    return std::make_shared<const nlohmann::json>(std::move(live).value());
  }
  if (live.is(kube::ErrorKind::NotFound)) return api::Unexpected{not_found(name)};
  VC_LOG_WARN("live queue read failed", kv("queue", name), kv("err", live.error().describe()));
  return api::Unexpected{not_found(name) +
                         " in the cache, and reading it from the API server "
                         "failed: " +
                         live.error().describe()};
}

std::vector<QueuePtr> InformerClusterView::list_queues() const {
  std::vector<QueuePtr> out;
  for (const auto& object : queues_->store().list()) out.push_back(as_queue(object));
  return out;
}

std::vector<QueuePtr> InformerClusterView::child_queues(std::string_view parent) const {
  std::vector<QueuePtr> out;
  if (parent.empty()) return out;
  for (const auto& object : queues_->store().by_index(kQueueParentIndex, std::string(parent))) {
    out.push_back(as_queue(object));
  }
  return out;
}

api::Expected<nlohmann::json> InformerClusterView::get_namespace(std::string_view name) const {
  if (name.empty()) return api::Unexpected{"resource name may not be empty"};
  auto live = client_.get(kube::resources::namespaces, "", name);
  if (live.ok()) return std::move(live).value();
  const auto& e = live.error();
  return api::Unexpected{e.message.empty() ? e.describe() : e.message};
}

}  // namespace vc::webhook::app
