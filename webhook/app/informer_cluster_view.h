#pragma once
// InformerClusterView: the ClusterView of the running webhook (cluster_view.h). Queues come from
// a shared Queue informer (Volcano's lister, resync 0) with the "queueParent" index on
// spec.parent; a queue the cache does not hold yet - created a moment ago, say - is read from the
// API server before the lookup is declared a miss, so a Job submitted right after its Queue is not
// denied as Volcano denies it (compat.md). Namespaces are a live GET, as in Volcano.
//
// Messages: a queue that exists nowhere gives Volcano's lister text
// `queue.scheduling.volcano.sh "q1" not found`; a failed live read says so and why. A namespace
// error is the API server's message (`namespaces "x" not found`).
//
// Cached queues are handed out without copying: the informer's default transform keeps each
// Queue's JSON (without metadata.managedFields) and the returned pointer shares its ownership.
//
// Thread-safety: every method may be called from any thread (the server's workers).

#include <memory>

#include "common/kube/cache/informer.h"
#include "common/kube/client.h"
#include "webhook/admission/cluster_view.h"

namespace vc::webhook::app {

inline constexpr const char* kQueueParentIndex = "queueParent";

// Registers the "queueParent" index (spec.parent; an empty parent is not indexed). Call before
// the informer starts.
void add_queue_parent_index(kube::cache::Informer& queues);

class InformerClusterView : public ClusterView {
 public:
  // queues: the Queue informer, with add_queue_parent_index() applied. client: for the live
  // reads; both must outlive the view.
  InformerClusterView(kube::Client& client, std::shared_ptr<const kube::cache::Informer> queues);

  api::Expected<QueuePtr> get_queue(std::string_view name) const override;
  std::vector<QueuePtr> list_queues() const override;
  std::vector<QueuePtr> child_queues(std::string_view parent) const override;
  api::Expected<nlohmann::json> get_namespace(std::string_view name) const override;

 private:
  kube::Client& client_;
  std::shared_ptr<const kube::cache::Informer> queues_;
};

}  // namespace vc::webhook::app
