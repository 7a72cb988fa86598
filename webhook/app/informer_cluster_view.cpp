#include "webhook/app/informer_cluster_view.h"

#include "common/api/label_validation.h"
#include "common/go/strconv.h"
#include "common/log/log.h"

namespace vc::webhook::app {
namespace {

using kube::cache::JsonObject;
using kube::cache::ObjectPtr;

// The cached JSON, sharing ownership with the cache entry. Objects come from the default
// transform or namespace_informer_options(), so they are JsonObjects; anything else is a wiring
// mistake.
QueuePtr cached_json(const ObjectPtr& object) {
  const auto* json_object = dynamic_cast<const JsonObject*>(object.get());
  if (!json_object) throw std::logic_error("webhook informers must cache JsonObjects");
  return QueuePtr(object, &json_object->json);
}

constexpr const char* kQueueNameAnnotation = "scheduling.volcano.sh/queue-name";

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

kube::cache::InformerOptions namespace_informer_options() {
  kube::cache::InformerOptions options;
  auto reads = std::make_shared<fastjson::MemberFilter>(fastjson::MemberFilter::only(
      {"metadata.name", "metadata.uid", "metadata.resourceVersion", "metadata.annotations"}));
  options.transform = kube::cache::Transform(
      "webhook-namespace-queue",
      [](nlohmann::json&& ns) -> kube::cache::ObjectPtr {
        auto out = std::make_shared<JsonObject>();
        kube::cache::read_metadata(ns, *out);
        out->json = {{"metadata", {{"name", out->name}}}};
        const auto& meta = ns["metadata"];
        if (auto a = meta.find("annotations"); a != meta.end() && a->is_object()) {
          if (auto q = a->find(kQueueNameAnnotation); q != a->end()) {
            out->json["metadata"]["annotations"] = {{kQueueNameAnnotation, *q}};
          }
        }
        return out;
      },
      std::move(reads));
  return options;
}

InformerClusterView::InformerClusterView(std::shared_ptr<const kube::cache::Informer> queues,
                                         std::shared_ptr<const kube::cache::Informer> namespaces,
                                         std::shared_ptr<LiveLookups> live)
    : queues_(std::move(queues)), namespaces_(std::move(namespaces)), live_(std::move(live)) {}

api::Expected<QueuePtr> InformerClusterView::get_queue(std::string_view name) const {
  // An empty name would turn the live GET into a LIST; the lister finds nothing under "".
  if (name.empty()) return api::Unexpected{not_found(name)};
  if (auto cached = queues_->store().get(std::string(name))) return cached_json(cached);
  auto live = live_->get(kube::resources::queues, name);
  switch (live.outcome) {
    case LiveLookups::Outcome::Found:
      VC_LOG_DEBUG("queue missing from the cache was read from the API server", kv("queue", name));
      return std::make_shared<const nlohmann::json>(std::move(live.object));
    case LiveLookups::Outcome::NotFound:
      return api::Unexpected{not_found(name)};
    case LiveLookups::Outcome::Failed:
      break;
  }
  return api::Unexpected{not_found(name) +
                         " in the cache, and reading it from the API server "
                         "failed: " +
                         live.why};
}

std::vector<QueuePtr> InformerClusterView::list_queues() const {
  std::vector<QueuePtr> out;
  for (const auto& object : queues_->store().list()) out.push_back(cached_json(object));
  return out;
}

std::vector<QueuePtr> InformerClusterView::child_queues(std::string_view parent) const {
  std::vector<QueuePtr> out;
  if (parent.empty()) return out;
  for (const auto& object : queues_->store().by_index(kQueueParentIndex, std::string(parent))) {
    out.push_back(cached_json(object));
  }
  return out;
}

api::Expected<nlohmann::json> InformerClusterView::get_namespace(std::string_view name) const {
  if (name.empty()) return api::Unexpected{"resource name may not be empty"};
  if (namespaces_) {
    if (auto cached = namespaces_->store().get(std::string(name))) return *cached_json(cached);
  }
  auto live = live_->get(kube::resources::namespaces, name);
  switch (live.outcome) {
    case LiveLookups::Outcome::Found:
      return std::move(live.object);
    case LiveLookups::Outcome::NotFound:
      // The negative cache does not keep the API server's text; this is its wording.
      return api::Unexpected{"namespaces " + go::quote(name) + " not found"};
    case LiveLookups::Outcome::Failed:
      break;
  }
  return api::Unexpected{live.why};
}

}  // namespace vc::webhook::app
