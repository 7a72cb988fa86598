#pragma once
// JobSyncer: the imperative shell of the job controller. It carries out the primitive operations of
// the state machine (spec job-controller.md §2.2) on one job: SyncJob (spec job-controller.md §4.2)
// and KillJob / KillTarget (spec job-controller.md §4.3). The decisions come from the pure modules
// (state/, sync/, derive/, plugins/); this class reads the shared caches, calls the API server,
// records events and metrics, and writes the status.
//
// Threads: execute() is called by the job's worker thread; one job is never executed by two
// threads at once (requests are sharded by job key), different jobs run concurrently.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/api/expected.h"
#include "common/kube/cache/store.h"
#include "common/kube/client.h"
#include "common/kube/events/recorder.h"
#include "common/kube/object_writer.h"
#include "controllers/job/derive/pod.h"
#include "controllers/job/job_pods.h"
#include "controllers/job/job_store.h"
#include "controllers/job/model/job.h"
#include "controllers/job/parallel.h"
#include "controllers/job/state/state_machine.h"
#include "controllers/job/sync/plan.h"
#include "controllers/job/terminating_namespaces.h"
#include "controllers/views/pod_view.h"
#include "controllers/views/podgroup_view.h"

namespace vc::controllers::job {

// The reference events about a job point at.
kube::events::ObjectReference job_reference(const Job& job);

struct SyncerCaches {
  const kube::cache::Store& pods;        // pod-view, with kJobPodsIndex
  const kube::cache::Store& podgroups;   // podgroup-view
  const kube::cache::Store& queues;      // json
  const kube::cache::Store& pvcs;        // json
  const kube::cache::Store* priorities;  // json; null when the PriorityClass gate is off
};

struct SyncerOptions {
  std::size_t max_parallel_pod_calls = 16;  // concurrent pod creates (and deletes) per sync;
                                            // 1 makes every call in order on the caller's thread
  // now and random_name are called by every worker at once: both must be thread-safe.
  // The wall clock of status times (lastTransitionTime); tests fix it.
  std::function<std::chrono::system_clock::time_point()> now = [] {
    return std::chrono::system_clock::now();
  };
  // The random suffix of generated PVC and volume names; tests make it predictable.
  RandomName random_name = random_name12;
};

class JobSyncer {
 public:
  // writer: the API calls (kube::ClientObjectWriter in production, testing::MemoryApi in tests).
  // pending: where the syncer records its creates and deletes until the informers show them;
  // shared with the pod informer's handlers, which forget a created pod once they see it.
  JobSyncer(kube::ObjectWriter& writer, kube::events::EventRecorder& recorder, SyncerCaches caches,
            JobStore& jobs, PendingWrites& pending, SyncerOptions options = {});

  // Runs op on job; target only for KillTarget. The error says why it failed (the request is
  // then retried by the worker loop).
  api::Status execute(const Job& job, const Operation& op, const KillTarget* target);

  // The job's pods by name, as job_pods() (job_pods.h) gathers them: the cached pods controlled
  // by a Job with this job-name annotation, a pod we deleted that the informer still shows live
  // given a deletionTimestamp, and a pod we created that the informer does not show yet added.
  std::vector<views::PodViewPtr> pods_of(const Job& job) const;

  // How much longer this syncer creates nothing in ns, the API server having refused a create
  // there because ns is being deleted (terminating_namespaces.h); zero when it creates. A job
  // synced meanwhile may have missed its PodGroup or pods: sync it again after this.
  TerminatingNamespaces::Clock::duration creates_held_for(const std::string& ns) const {
    return terminating_.held_for(ns);
  }

 private:
  api::Status execute_unguarded(const Job& job, const Operation& op, const KillTarget* target);
  api::Status sync_job(const Job& job, StatusRule rule);
  api::Status kill(const Job& job, KillPlan plan, StatusRule rule);

  // Pieces of sync_job.
  api::Status ensure_forwarding(Job& job);
  api::Status init_status(Job& job);
  api::Status ensure_pvcs(Job& job, JobStatus& working);
  api::Status ensure_podgroup(const Job& job);
  api::Status run_plugins_job_hook(const Job& job, JobStatus& working, bool add);
  // pods: the job's pods the plan was made from (pods_of), read by the dependsOn gate.
  api::Status create_pods(const Job& job, const std::vector<PodToCreate>& create,
                          const std::vector<views::PodViewPtr>& pods, JobStatus& status);
  api::Status delete_pods(const Job& job, const std::vector<views::PodViewPtr>& pods,
                          JobStatus& status);
  // Deletes one pod: success when it is terminating now (a pod already going away is only
  // counted), else why the delete failed.
  api::Status delete_pod(const views::PodView& pod);
  // Remember a pod or PodGroup we created (reply: the server's answer) until the informer shows
  // it (job_pods.h). Thread-safe.
  void record_pod_created(const Job& job, const nlohmann::json& sent, const nlohmann::json& reply,
                          const std::string& phase);
  void record_podgroup_created(const Job& job, const nlohmann::json& reply);
  // At the end of a kill: deletes the job's PodGroup, the cached one or, when the cache does not
  // show it yet, the one we created.
  api::Status delete_podgroup(const Job& job);
  // One volume's claim exists: in the cache, else on the server; a claim we named but failed to
  // create (its volumeClaim is set) is created now.
  api::Status ensure_pvc(const Job& job, const VolumeSpec& volume, const std::string& name);
  void report_podgroup_pending(const Job& job, const views::PodGroupView& pg);

  // PUT .../status. On success job becomes the server's copy (and the JobStore learns it).
  // A conflict caused only by a spec or metadata change is retried on the fresh object.
  kube::Status write_status(Job& job, const JobStatus& status);
  const views::PodGroupView* find_podgroup(const Job& job, views::PodGroupViewPtr& hold) const;
  void event(const Job& job, bool warning, const char* reason, std::string message);

  kube::ObjectWriter& writer_;
  kube::events::EventRecorder& recorder_;
  SyncerCaches caches_;
  JobStore& jobs_;
  SyncerOptions options_;
  ParallelPool pool_;  // max_parallel_pod_calls - 1 helpers, shared by every worker
  // Our creates and deletes the informers have not shown yet; pods_of and find_podgroup forget
  // the caught-up ones.
  PendingWrites& pending_;
  TerminatingNamespaces terminating_{std::chrono::seconds(3)};
};

}  // namespace vc::controllers::job
