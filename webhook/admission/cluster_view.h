#pragma once
// ClusterView: the cluster state an admit function may read. In the server it is backed by the
// Queue and Namespace informers, with a bounded live API read for what they do not hold yet
// (webhook/app/informer_cluster_view.h); in unit tests by plain maps (StaticClusterView); in
// `vc-webhook-manager check` by the API when --kubeconfig is given, else by a view that reports
// lookups as skipped.
//
// Thread-safety: implementations must allow concurrent calls from every server worker.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"

namespace vc::webhook {

using QueuePtr = std::shared_ptr<const nlohmann::json>;

// A Queue's spec.parent when it is a string, else empty: the key of the "queueParent" index.
std::string_view queue_parent(const nlohmann::json& queue);

class ClusterView {
 public:
  virtual ~ClusterView() = default;

  // A Queue object by name. The error text on a miss is Volcano's lister message, e.g.
  // `queue.scheduling.volcano.sh "q1" not found`.
  virtual api::Expected<QueuePtr> get_queue(std::string_view name) const = 0;
  // Every Queue known.
  virtual std::vector<QueuePtr> list_queues() const = 0;
  // Queues whose spec.parent equals parent (the "queueParent" index; an empty parent is not
  // indexed).
  virtual std::vector<QueuePtr> child_queues(std::string_view parent) const = 0;
  // A Namespace object by name (a live GET in Volcano; the server may hold only the fields the
  // admit rules read); error text on failure.
  virtual api::Expected<nlohmann::json> get_namespace(std::string_view name) const = 0;
  // False when lookups are unavailable (offline `check` without a kubeconfig); rules that need
  // a lookup then skip it and report the skip as a warning.
  virtual bool online() const { return true; }
};

// A ClusterView over fixed objects, for unit tests and offline checks.
class StaticClusterView : public ClusterView {
 public:
  void add_queue(nlohmann::json queue);
  void add_namespace(nlohmann::json ns);
  void set_online(bool online) { online_ = online; }

  api::Expected<QueuePtr> get_queue(std::string_view name) const override;
  std::vector<QueuePtr> list_queues() const override;
  std::vector<QueuePtr> child_queues(std::string_view parent) const override;
  api::Expected<nlohmann::json> get_namespace(std::string_view name) const override;
  bool online() const override { return online_; }

 private:
  std::map<std::string, QueuePtr, std::less<>> queues_;
  std::map<std::string, nlohmann::json, std::less<>> namespaces_;
  bool online_ = true;
};

}  // namespace vc::webhook
