#include "webhook/check/live_cluster_view.h"

#include "common/kube/resource.h"
#include "common/log/log.h"
#include "webhook/check/admit_object.h"

namespace vc::webhook::check {

api::Expected<std::unique_ptr<LiveClusterView>> LiveClusterView::connect(
    std::shared_ptr<kube::Client> client) {
  std::unique_ptr<LiveClusterView> view(new LiveClusterView(std::move(client)));
  auto list = view->client_->list(kube::resources::queues, "");
  if (!list) return api::Unexpected{"cannot list queues: " + list.error().describe()};
  auto items = list->find("items");
  if (items != list->end() && items->is_array()) {
    for (auto& queue : *items) {
      view->queues_.add_queue(std::move(queue));
      ++view->queue_count_;
    }
  }
  VC_LOG_DEBUG("listed queues", vc::log::kv("count", view->queue_count_));
  return view;
}

api::Expected<QueuePtr> LiveClusterView::get_queue(std::string_view name) const {
  return queues_.get_queue(name);
}

std::vector<QueuePtr> LiveClusterView::list_queues() const {
  return queues_.list_queues();
}

std::vector<QueuePtr> LiveClusterView::child_queues(std::string_view parent) const {
  return queues_.child_queues(parent);
}

api::Expected<nlohmann::json> LiveClusterView::get_namespace(std::string_view name) const {
  std::lock_guard lock(mu_);
  if (auto it = namespaces_.find(name); it != namespaces_.end()) return it->second;
  auto got = client_->get(kube::resources::namespaces, "", name);
  api::Expected<nlohmann::json> result =
      got ? api::Expected<nlohmann::json>(std::move(*got))
          : api::Expected<nlohmann::json>(api::Unexpected{got.error().message});
  VC_LOG_DEBUG("got namespace", vc::log::kv("namespace", std::string(name)),
               vc::log::kv("ok", result.ok()));
  namespaces_.emplace(std::string(name), result);
  return result;
}

bool LiveClusterView::add_planned_queue(nlohmann::json queue) {
  const std::string name = metadata_string(queue, "name");
  if (name.empty() || queues_.get_queue(name)) return false;
  queue["status"] = {{"state", "Open"}};
  queues_.add_queue(std::move(queue));
  return true;
}

void LiveClusterView::add_planned_namespace(nlohmann::json ns) {
  const std::string name = metadata_string(ns, "name");
  if (name.empty()) return;
  std::lock_guard lock(mu_);
  namespaces_.insert_or_assign(name, api::Expected<nlohmann::json>(std::move(ns)));
}

}  // namespace vc::webhook::check
