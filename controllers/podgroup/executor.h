#pragma once
// Executor: applies the pg-controller's decisions through the API
// (spec controller-manager.md §3.2-§3.6): reads owners' annotations, creates PodGroups
// (AlreadyExists is success, so a repeated or concurrent reconcile never makes a second PodGroup
// for one owner: the name is derived from the owner's UID), joins pods to them with a merge patch,
// and, on the ReplicaSet/StatefulSet path, updates or deletes them.
//
// Threads: every method may be called from several worker threads at once (the Client is
// thread-safe and the executor has no mutable state).

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "common/api/time.h"
#include "common/kube/client.h"
#include "controllers/framework/controller.h"
#include "controllers/podgroup/derive.h"
#include "controllers/podgroup/plan.h"
#include "controllers/views/pod_view.h"

namespace vc::controllers::podgroup {

class Executor {
 public:
  using Clock = std::function<api::TimePoint()>;

  Executor(
      kube::Client& client, const ControllerOptions& options,
      Clock now = [] { return std::chrono::system_clock::now(); });

  // The merged annotations of the pod's owners that are ReplicaSets, DaemonSets, StatefulSets
  // (apps/v1) or Jobs (batch/v1), read from the API, the first owner winning per key. A failed GET
  // is logged and that owner skipped (spec controller-manager.md §3.3). Empty when not inheriting.
  OwnerAnnotations owner_annotations(const views::PodView& pod);

  // The pod path: creates the PodGroup if the plan says so, then annotates the pod. Returns the
  // first error (the caller retries the pod).
  kube::Status apply(const views::PodView& pod, const PodPlan& plan);

  // The workload path (spec controller-manager.md §3.5): builds the PodGroup from pod; creates it,
  // or, when it exists, replaces its spec, labels and annotations if they differ (a Conflict is
  // logged, not retried); then annotates the pod.
  kube::Status create_or_update(const views::PodView& pod);

  // DELETE; NotFound is success.
  kube::Status delete_podgroup(const std::string& ns, const std::string& name);

  // The annotation merge patch that joins a pod to a PodGroup (spec controller-manager.md §3.4).
  static std::string join_patch(const std::string& podgroup_name);

 private:
  DerivedPodGroup derive(const views::PodView& pod);
  kube::Status create(const views::PodView& pod, const nlohmann::json& podgroup);
  kube::Status annotate(const views::PodView& pod, const std::string& podgroup_name);

  kube::Client& client_;
  const ControllerOptions& options_;
  const Clock now_;
};

}  // namespace vc::controllers::podgroup
