#pragma once
// InformerClusterView: the ClusterView of the running webhook (cluster_view.h). Queues come from
// a shared Queue informer (Volcano's lister, resync 0) with the "queueParent" index on
// spec.parent; namespaces from a Namespace informer that keeps only each namespace's name and
// queue annotation (Volcano reads the namespace live on every PodGroup). No review waits on the
// API server for what an informer holds.
//
// An object an informer does not hold - created a moment ago, or the informer has not synced -
// is read live through LiveLookups (live_lookups.h: at most --live-lookup-timeout, never waiting
// for a rate-limiter token, a bounded number at once, misses remembered for a while), so a Job
// submitted right after its Queue is not denied as Volcano denies it (compat.md).
//
// Messages: a queue that exists nowhere gives Volcano's lister text
// `queue.scheduling.volcano.sh "q1" not found`; a live read that failed or was not made says so
// and why after that text. A namespace error is the API server's message
// (`namespaces "x" not found`) or why the read failed.
//
// Cached queues are handed out without copying: the informer's default transform keeps each
// Queue's JSON (without metadata.managedFields) and the returned pointer shares its ownership.
//
// Thread-safety: every method may be called from any thread (the server's workers).

#include <memory>

#include "common/kube/cache/informer.h"
#include "webhook/admission/cluster_view.h"
#include "webhook/app/live_lookups.h"

namespace vc::webhook::app {

inline constexpr const char* kQueueParentIndex = "queueParent";

// Registers the "queueParent" index (spec.parent; an empty parent is not indexed). Call before
// the informer starts.
void add_queue_parent_index(kube::cache::Informer& queues);

// The Namespace informer's options: each namespace is cached as
// {"metadata": {"name", "annotations": {scheduling.volcano.sh/queue-name}}} (the annotation only
// when set), which is all /podgroups/mutate reads.
kube::cache::InformerOptions namespace_informer_options();

class InformerClusterView : public ClusterView {
 public:
  // queues: the Queue informer, with add_queue_parent_index() applied. namespaces: the Namespace
  // informer (namespace_informer_options()), or null when no endpoint reads namespaces (every
  // namespace read is then live). live: for what the informers do not hold.
  InformerClusterView(std::shared_ptr<const kube::cache::Informer> queues,
                      std::shared_ptr<const kube::cache::Informer> namespaces,
                      std::shared_ptr<LiveLookups> live);

  api::Expected<QueuePtr> get_queue(std::string_view name) const override;
  std::vector<QueuePtr> list_queues() const override;
  std::vector<QueuePtr> child_queues(std::string_view parent) const override;
  api::Expected<nlohmann::json> get_namespace(std::string_view name) const override;

 private:
  std::shared_ptr<const kube::cache::Informer> queues_;
  std::shared_ptr<const kube::cache::Informer> namespaces_;  // may be null
  std::shared_ptr<LiveLookups> live_;
};

}  // namespace vc::webhook::app
