#pragma once
// The cluster as `check --kubeconfig` sees it: every Queue listed once when connecting (the
// webhook reads queues from an informer cache, so one list is the same snapshot), Namespaces
// fetched with a GET on first use and remembered. Objects from the manifests being checked can
// be added, so that later documents see what earlier ones would have created.
//
// Thread-safety: every method may be called from any thread (the namespace memo is locked);
// add_planned_* must not race with lookups of the same name.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "common/kube/client.h"
#include "webhook/admission/cluster_view.h"

namespace vc::webhook::check {

class LiveClusterView : public ClusterView {
 public:
  // Lists every Queue through client; the error names what failed.
  static api::Expected<std::unique_ptr<LiveClusterView>> connect(
      std::shared_ptr<kube::Client> client);

  api::Expected<QueuePtr> get_queue(std::string_view name) const override;
  std::vector<QueuePtr> list_queues() const override;
  std::vector<QueuePtr> child_queues(std::string_view parent) const override;
  api::Expected<nlohmann::json> get_namespace(std::string_view name) const override;

  // A Queue that an earlier manifest creates. Unless the cluster already has a queue of that
  // name, it becomes known, in state Open as the queue controller would set it; returns whether
  // it was added.
  bool add_planned_queue(nlohmann::json queue);
  // A Namespace that an earlier manifest creates or updates: its annotations are what later
  // PodGroups in it see.
  void add_planned_namespace(nlohmann::json ns);

  std::size_t queue_count() const { return queue_count_; }

 private:
  explicit LiveClusterView(std::shared_ptr<kube::Client> client) : client_(std::move(client)) {}

  std::shared_ptr<kube::Client> client_;
  StaticClusterView queues_;
  std::size_t queue_count_ = 0;
  mutable std::mutex mu_;
  // Namespace objects or the GET's error text, by name; guarded by mu_.
  mutable std::map<std::string, api::Expected<nlohmann::json>, std::less<>> namespaces_;
};

}  // namespace vc::webhook::check
