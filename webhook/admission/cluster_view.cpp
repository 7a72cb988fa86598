#include "webhook/admission/cluster_view.h"

#include "common/go/strconv.h"
#include "webhook/admission/field_error.h"

namespace vc::webhook {

void StaticClusterView::add_queue(nlohmann::json queue) {
  const std::string name = queue.value("/metadata/name"_json_pointer, "");
  queues_[name] = std::make_shared<const nlohmann::json>(std::move(queue));
}

void StaticClusterView::add_namespace(nlohmann::json ns) {
  const std::string name = ns.value("/metadata/name"_json_pointer, "");
  namespaces_[name] = std::move(ns);
}

api::Expected<QueuePtr> StaticClusterView::get_queue(std::string_view name) const {
  auto it = queues_.find(name);
  if (it == queues_.end()) {
    return api::Unexpected{"queue.scheduling.volcano.sh " + go::quote(name) + " not found"};
  }
  return it->second;
}

std::vector<QueuePtr> StaticClusterView::list_queues() const {
  std::vector<QueuePtr> out;
  for (const auto& [_, q] : queues_) out.push_back(q);
  return out;
}

// Read by plain lookups: the static view runs this for every queue on every queue review it
// answers (check, tests, the review benchmark), and a json_pointer is parsed anew at each use.
std::string_view queue_parent(const nlohmann::json& queue) {
  if (!queue.is_object()) return {};
  auto spec = queue.find("spec");
  if (spec == queue.end() || !spec->is_object()) return {};
  auto parent = spec->find("parent");
  if (parent == spec->end() || !parent->is_string()) return {};
  return parent->get_ref<const std::string&>();
}

std::vector<QueuePtr> StaticClusterView::child_queues(std::string_view parent) const {
  std::vector<QueuePtr> out;
  if (parent.empty()) return out;
  for (const auto& [_, q] : queues_) {
    if (queue_parent(*q) == parent) out.push_back(q);
  }
  return out;
}

api::Expected<nlohmann::json> StaticClusterView::get_namespace(std::string_view name) const {
  auto it = namespaces_.find(name);
  if (it == namespaces_.end())
    return api::Unexpected{"namespaces " + go::quote(name) + " not found"};
  return it->second;
}

}  // namespace vc::webhook
