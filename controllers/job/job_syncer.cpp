// JobSyncer: SyncJob and KillJob/KillTarget against the API server
// (spec job-controller.md §4.2, §4.3). Each step's decision is a pure function from another module;
// the order of the steps and the events are Volcano's.
// The PodGroup and claim steps are in job_syncer_podgroup_pvc.cpp.

#include "controllers/job/job_syncer.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "common/api/time.h"
#include "common/json/release.h"
#include "common/kube/fault_scope.h"
#include "common/kube/resource.h"
#include "common/log/log.h"
#include "common/volcano/job_decode.h"
#include "controllers/job/derive/min_resources.h"
#include "controllers/job/derive/pod.h"
#include "controllers/job/derive/podgroup.h"
#include "controllers/job/model/job_json.h"
#include "controllers/job/model/metrics.h"
#include "controllers/job/plugins/plugin.h"
#include "controllers/job/sync/depends_on.h"
#include "controllers/job/sync/status_finish.h"
#include "controllers/views/intern.h"
#include "controllers/views/podgroup_view.h"
#include "controllers/views/queue_view.h"

namespace vc::controllers::job {

namespace {

using kube::ErrorKind;
using nlohmann::json;
namespace resources = kube::resources;

// Go prints a []error as "[e1 e2]".
std::string go_error_list(const std::vector<std::string>& errors) {
  std::string out = "[";
  for (std::size_t i = 0; i < errors.size(); ++i) {
    if (i) out += ' ';
    out += errors[i];
  }
  return out + "]";
}

void count_rule_metrics(const Job& job, const RuleOutcome& outcome) {
  if (outcome.completed) job_completed(job);
  if (outcome.failed) job_failed(job);
}

}  // namespace

JobSyncer::JobSyncer(kube::ObjectWriter& writer, kube::events::EventRecorder& recorder,
                     SyncerCaches caches, JobStore& jobs, PendingWrites& pending,
                     SyncerOptions options)
    : writer_(writer),
      recorder_(recorder),
      caches_(caches),
      jobs_(jobs),
      options_(options),
      pool_(options.max_parallel_pod_calls > 0 ? options.max_parallel_pod_calls - 1 : 0),
      pending_(pending) {}

std::vector<views::PodViewPtr> JobSyncer::pods_of(const Job& job) const {
  std::vector<views::PodViewPtr> out = job_pods(caches_.pods, job.key(), pending_, options_.now());
  // The index hands pods out in no particular order; by name, every kill and delete goes out in
  // the same order from one run to the next (Volcano's order is a map's, i.e. random).
  std::sort(out.begin(), out.end(), [](const views::PodViewPtr& a, const views::PodViewPtr& b) {
    return a->name < b->name;
  });
  return out;
}

api::Status JobSyncer::execute(const Job& job, const Operation& op, const KillTarget* target) {
  // The derivations throw std::invalid_argument on a template the API server accepted but we
  // cannot read (e.g. a malformed quantity): report it on the job instead of losing it in a log.
  // The API server accepted what we cannot read, so the fault is ours: noted as an exception, it
  // is retried and never counted toward --max-requeue-num (controllers/framework/retry_policy.h).
  try {
    return execute_unguarded(job, op, target);
  } catch (const std::exception& e) {
    kube::FaultScope::note_exception();
    event(job, true, "SyncError", std::string("Failed to sync job: ") + e.what());
    return api::Unexpected{std::string("sync job: ") + e.what()};
  }
}

api::Status JobSyncer::execute_unguarded(const Job& job, const Operation& op,
                                         const KillTarget* target) {
  switch (op.kind) {
    case OpKind::Sync:
      return sync_job(job, op.rule);
    case OpKind::KillJob: {
      auto pods = pods_of(job);
      KillPlan plan = plan_kill_job(job, pods, op.retain == Retain::Soft);
      return kill(job, std::move(plan), op.rule);
    }
    case OpKind::KillTarget: {
      auto pods = pods_of(job);
      KillTarget none{.task = {}, .pod = {}, .partition = {}, .kind = KillTarget::Kind::Task};
      KillPlan plan = plan_kill_target(job, pods, target ? *target : none);
      return kill(job, std::move(plan), op.rule);
    }
  }
  return api::Unexpected{"unknown operation"};
}

// ---- KillJob / KillTarget (spec job-controller.md §4.3) --------------------------------------

api::Status JobSyncer::kill(const Job& job, KillPlan plan, StatusRule rule) {
  if (job.deletion_timestamp) return api::ok_status();
  if (plan.noop) return api::ok_status();
  JobStatus status = std::move(plan.status);
  std::mutex mu;
  std::vector<std::string> errors;
  static const std::string kOutOfSyncPatch =
      R"([{"op":"add","path":"/metadata/annotations/volcano.sh~1controller-out-of-sync","value":"true"}])";
  pool_.parallel_for(plan.kill.size(), options_.max_parallel_pod_calls, [&](std::size_t i) {
    const views::PodView& pod = *plan.kill[i];
    const std::string* task = pod.annotation(keys::kTaskSpec);
    const std::string task_name = task ? *task : std::string();
    // Mark first, so the delete event is known to be ours (OutOfSync, not PodEvicted).
    auto patched = writer_.patch(resources::pods, pod.namespace_, pod.name, kube::PatchType::Json,
                                 kOutOfSyncPatch);
    if (!patched.ok() && !patched.is(ErrorKind::NotFound)) {
      std::lock_guard lock(mu);
      errors.push_back("failed to patch pod " + pod.name + ": " + patched.error().describe());
      count_pod(status, task_name, pod.phase);
      return;
    }
    api::Status deleted = delete_pod(pod);
    std::lock_guard lock(mu);
    if (deleted) {
      ++status.terminating;
    } else {
      errors.push_back(deleted.error());
      count_pod(status, task_name, pod.phase);
    }
  });
  if (!errors.empty()) {
    event(job, true, "FailedDelete", "Error deleting pods: " + go_error_list(errors));
    return api::Unexpected{"failed to kill " + std::to_string(errors.size()) + " pods of " +
                           std::to_string(plan.kill.size())};
  }

  const RuleOutcome outcome = apply_rule(rule, job.spec, status);
  if (outcome.changed) touch_transition(status, options_.now());
  set_running_duration(status, job);

  auto plugins = plugins::make_plugins(job.spec);
  if (!plugins.ok()) return api::Unexpected{plugins.error()};
  for (auto& plugin : *plugins) {
    plugins::PluginEnv env{writer_, job, status.controlled_resources};
    if (auto done = plugin->on_job_delete(env); !done) {
      return api::Unexpected{"plugin " + plugin->name() + " on job delete: " + done.error()};
    }
  }

  Job current = job;
  auto written = write_status(current, status);
  if (!written.ok()) {
    if (written.is(ErrorKind::NotFound)) return api::ok_status();
    return api::Unexpected{"update job status: " + written.error().describe()};
  }
  count_rule_metrics(current, outcome);

  return delete_podgroup(current);
}

// ---- SyncJob (spec job-controller.md §4.2) ---------------------------------------------------

api::Status JobSyncer::sync_job(const Job& job, StatusRule rule) {
  if (job.deletion_timestamp) return api::ok_status();
  Job current = job;

  const volcano::QueuePtr queue = views::as_queue(caches_.queues.get(current.spec.queue));
  if (!queue) return api::Unexpected{"queue " + current.spec.queue + " not found"};
  if (!queue->spec.extend_clusters.empty()) {
    if (auto forwarded = ensure_forwarding(current); !forwarded) return forwarded;
  }

  JobStatus working = current.status;
  const std::string& phase = current.status.phase;
  // A brand-new job needs its status initialised and its PodGroup created: two independent
  // round trips, issued together so the scheduler sees the PodGroup one round trip earlier.
  std::optional<api::Status> podgroup_ensured;  // ensure_podgroup's result, once it has run
  if (phase.empty() || phase == phase::kPending) {
    if (phase.empty()) {
      api::Status initialised = api::ok_status();
      views::PodGroupViewPtr hold;
      if (!find_podgroup(current, hold)) {
        const Job before_init = current;  // init_status rewrites current
        pool_.parallel_for(2, 2, [&](std::size_t i) {
          if (i == 0) {
            podgroup_ensured = ensure_podgroup(before_init);
          } else {
            initialised = init_status(current);
          }
        });
      } else {
        initialised = init_status(current);
      }
      if (!initialised) {
        event(current, true, "JobStatusError",
              "Failed to initialize job status, err: " + initialised.error());
        return initialised;
      }
      working = current.status;
    }
    if (auto added = run_plugins_job_hook(current, working, true); !added) {
      event(current, true, "PluginError",
            "Execute plugin when job add failed, err: " + added.error());
      return added;
    }
    if (auto claimed = ensure_pvcs(current, working); !claimed) {
      event(current, true, "PVCError", "Failed to create PVC, err: " + claimed.error());
      return claimed;
    }
  } else if (auto updated = run_plugins_job_hook(current, working, false); !updated) {
    event(current, true, "PluginError",
          "Execute plugin when job add failed, err: " + updated.error());
    return updated;
  }
  if (!podgroup_ensured.has_value()) podgroup_ensured = ensure_podgroup(current);
  if (!podgroup_ensured->ok()) {
    event(current, true, "PodGroupError",
          "Failed to create PodGroup, err: " + podgroup_ensured->error());
    return *podgroup_ensured;
  }

  views::PodGroupViewPtr hold;
  const views::PodGroupView* pg = find_podgroup(current, hold);
  if (pg) report_podgroup_pending(current, *pg);
  if (!podgroup_admitted(pg)) {
    JobStatus next = working;
    const RuleOutcome outcome = apply_rule(rule, current.spec, next);
    if (!status_changed(current.status, next)) return api::ok_status();
    touch_transition(next, options_.now());
    auto written = write_status(current, next);
    if (!written.ok()) return api::Unexpected{"update job status: " + written.error().describe()};
    count_rule_metrics(current, outcome);
    return api::ok_status();
  }

  Job snapshot = current;
  snapshot.status = working;
  const std::vector<views::PodViewPtr> pods = pods_of(current);
  SyncPlan plan = plan_sync(snapshot, pods);
  if (auto created = create_pods(current, plan.create, pods, plan.status); !created) {
    return created;
  }
  if (auto deleted = delete_pods(current, plan.remove, plan.status); !deleted) return deleted;
  const RuleOutcome outcome = apply_rule(rule, current.spec, plan.status);
  if (!status_changed(current.status, plan.status)) return api::ok_status();
  touch_transition(plan.status, options_.now());
  auto written = write_status(current, plan.status);
  if (!written.ok()) return api::Unexpected{"update job status: " + written.error().describe()};
  count_rule_metrics(current, outcome);
  return api::ok_status();
}

api::Status JobSyncer::ensure_forwarding(Job& job) {
  if (const std::string* v = job.annotation(keys::kJobForwarding); v && *v == "true") {
    return api::ok_status();
  }
  json patch = {{"metadata", {{"annotations", {{keys::kJobForwarding, "true"}}}}}};
  auto r = writer_.patch(resources::jobs, job.namespace_, job.name, kube::PatchType::Merge,
                         patch.dump());
  if (!r.ok()) return api::Unexpected{"mark job for forwarding: " + r.error().describe()};
  try {
    auto updated = job_from_json(*r);
    jobs_.record_write(updated);
    job = *updated;
  } catch (const std::exception& e) {
    return api::Unexpected{std::string("read updated job: ") + e.what()};
  }
  return api::ok_status();
}

api::Status JobSyncer::init_status(Job& job) {
  JobStatus status = job.status;
  status.phase = phase::kPending;
  status.min_available = job.spec.min_available;
  touch_transition(status, options_.now());
  auto written = write_status(job, status);
  if (!written.ok()) return api::Unexpected{written.error().describe()};
  return api::ok_status();
}

api::Status JobSyncer::run_plugins_job_hook(const Job& job, JobStatus& working, bool add) {
  auto plugins = plugins::make_plugins(job.spec);
  if (!plugins.ok()) return api::Unexpected{plugins.error()};
  for (auto& plugin : *plugins) {
    plugins::PluginEnv env{writer_, job, working.controlled_resources};
    if (auto done = add ? plugin->on_job_add(env) : plugin->on_job_update(env); !done) return done;
  }
  return api::ok_status();
}

api::Status JobSyncer::create_pods(const Job& job, const std::vector<PodToCreate>& create,
                                   const std::vector<views::PodViewPtr>& pods, JobStatus& status) {
  if (create.empty()) return api::ok_status();
  // The namespace refused a create lately because it is being deleted: the controller repeats
  // a plain sync of the job when that hold ends (creates_held_for).
  if (!terminating_.may_create(job.namespace_)) return api::ok_status();
  auto plugins = plugins::make_plugins(job.spec);
  if (!plugins.ok()) return api::Unexpected{plugins.error()};
  std::map<std::string, bool> ready;  // dependsOn per task, checked once per sync
  // The gate reads the pods the plan was made from, not the cache: a dependency pod we have just
  // killed is terminating there even while the cache still shows it ready.
  std::unordered_map<std::string_view, views::PodViewPtr> by_name;
  auto pod_of = [&](const std::string& name) -> views::PodViewPtr {
    if (by_name.empty()) {
      for (const auto& pod : pods) by_name.emplace(pod->name, pod);
    }
    auto it = by_name.find(name);
    return it == by_name.end() ? nullptr : it->second;
  };
  std::vector<std::pair<std::string, json>> to_create;  // task, pod
  for (const PodToCreate& p : create) {
    const TaskSpec* task = job.spec.task(p.task);
    if (!task) continue;
    auto [it, fresh] = ready.try_emplace(p.task, true);
    if (fresh && task->depends_on) it->second = depends_on_ready(job, *task, pod_of);
    if (!it->second) continue;
    json pod = build_pod(job, *task, p.index, task->template_json(), options_.random_name);
    for (auto& plugin : *plugins) {
      if (auto done = plugin->on_pod_create(pod, job); !done) {
        return api::Unexpected{"plugin " + plugin->name() + ": " + done.error()};
      }
    }
    to_create.emplace_back(p.task, std::move(pod));
  }

  std::mutex mu;
  std::vector<std::string> errors;
  pool_.parallel_for(to_create.size(), options_.max_parallel_pod_calls, [&](std::size_t i) {
    const auto& [task, pod] = to_create[i];
    // Of the pod the server returns only these are read below; the rest is never built.
    static const auto kCreatedPodReads = fastjson::MemberFilter::only(
        {"metadata.uid", "metadata.creationTimestamp", "status.phase"});
    auto created = writer_.create(resources::pods, job.namespace_, pod, kCreatedPodReads);
    if (created.is(ErrorKind::AlreadyExists)) return;
    // The namespace is being deleted, the job with it: every create will be refused, so this is
    // no failure to report or retry (Kubernetes' ReplicaSet controller does the same), and the
    // syncer holds its creates there for a while.
    if (!created.ok() && created.error().has_cause(kube::kNamespaceTerminatingCause)) {
      terminating_.refused(job.namespace_);
      return;
    }
    if (!created.ok()) {
      std::lock_guard lock(mu);
      errors.push_back("failed to create pod " + pod["metadata"]["name"].get<std::string>() +
                       ", err: " + created.error().describe());
      return;
    }
    terminating_.created(job.namespace_);
    const json& st = created->contains("status") ? (*created)["status"] : json();
    const std::string phase = st.is_object() && st.contains("phase") && st["phase"].is_string()
                                  ? st["phase"].get<std::string>()
                                  : std::string("Pending");
    record_pod_created(job, pod, *created, phase);
    std::lock_guard lock(mu);
    count_pod(status, task, phase);
    if (job.creation_timestamp) {
      const json& meta = (*created)["metadata"];
      if (meta.contains("creationTimestamp") && meta["creationTimestamp"].is_string()) {
        if (auto t = api::parse_time(meta["creationTimestamp"].get<std::string>())) {
          observe_pod_creation_latency(
              std::chrono::duration_cast<std::chrono::milliseconds>(*t - *job.creation_timestamp));
        }
      }
    }
  });
  // Freed without their destructors' heap stack (common/json/release.h).
  for (auto& entry : to_create) fastjson::release(entry.second);
  if (!errors.empty()) {
    event(job, true, "FailedCreate", "Error creating pods: " + go_error_list(errors));
    return api::Unexpected{"failed to create " + std::to_string(errors.size()) + " pods of " +
                           std::to_string(to_create.size())};
  }
  return api::ok_status();
}

void JobSyncer::record_pod_created(const Job& job, const json& sent, const json& reply,
                                   const std::string& phase) {
  const json& meta = reply.contains("metadata") ? reply["metadata"] : json();
  if (!meta.is_object() || !meta.contains("uid") || !meta["uid"].is_string()) return;
  try {
    // The pod as the informer will show it: what we sent, with the server's UID and phase.
    std::shared_ptr<views::PodView> view = views::make_pod_view(sent);
    view->uid = meta["uid"].get<std::string>();
    view->phase = views::intern(phase);
    pending_.pods_created.record(job.key(), std::move(view));
  } catch (const std::exception& e) {
    // Not recorded: a sync before the informer shows the pod will try to create it again and
    // meet AlreadyExists, as before this record existed.
    VC_LOG_WARN("cannot read the pod we created", kv("job", job.key()), kv("error", e.what()));
  }
}

api::Status JobSyncer::delete_pod(const views::PodView& pod) {
  // Already going away: counted as terminating (Volcano sends another DELETE on every sync,
  // with the same count).
  if (pod.deletion_timestamp) return api::ok_status();
  auto removed = writer_.remove(resources::pods, pod.namespace_, pod.name);
  if (removed.ok() || removed.is(ErrorKind::NotFound)) {
    pending_.deleted.record(pod.uid);
    // Gone already: a pod we created that the informer never showed needs no stand-in.
    const std::string* job_name = pod.annotation(keys::kJobName);
    if (removed.is(ErrorKind::NotFound) && job_name) {
      pending_.pods_created.forget(kube::cache::object_key(pod.namespace_, *job_name), pod.uid);
    }
    return api::ok_status();
  }
  return api::Unexpected{"failed to delete pod " + pod.name + ": " + removed.error().describe()};
}

api::Status JobSyncer::delete_pods(const Job& job, const std::vector<views::PodViewPtr>& pods,
                                   JobStatus& status) {
  std::mutex mu;
  std::vector<std::string> errors;
  pool_.parallel_for(pods.size(), options_.max_parallel_pod_calls, [&](std::size_t i) {
    api::Status deleted = delete_pod(*pods[i]);
    std::lock_guard lock(mu);
    if (deleted) {
      ++status.terminating;
    } else {
      errors.push_back(deleted.error());
    }
  });
  if (!errors.empty()) {
    event(job, true, "FailedDelete", "Error deleting pods: " + go_error_list(errors));
    return api::Unexpected{"failed to delete " + std::to_string(errors.size()) + " pods of " +
                           std::to_string(pods.size())};
  }
  return api::ok_status();
}

kube::Status JobSyncer::write_status(Job& job, const JobStatus& status) {
  for (int attempt = 0;; ++attempt) {
    // A write with our resourceVersion changes nothing but the status, so only the version and
    // status of the reply are read; without one (a job not read from the server) the write is
    // unconditional and the reply is read whole.
    const bool conditional = !job.resource_version.empty();
    const json body = volcano::job_status_update_body(job, status);
    auto r = conditional ? writer_.update_status(resources::jobs, job.namespace_, body,
                                                 status_write_reads())
                         : writer_.update_status(resources::jobs, job.namespace_, body);
    if (r.ok()) {
      VC_LOG_DEBUG("job status written", kv("job", job.key()), kv("phase", status.phase),
                   kv("pending", status.pending), kv("running", status.running),
                   kv("succeeded", status.succeeded), kv("conditions", status.conditions.size()));
      try {
        auto updated = conditional ? job_after_status_write(job, *r) : job_from_json(*r);
        jobs_.record_write(updated);
        job = *updated;
      } catch (const std::exception& e) {
        VC_LOG_WARN("cannot read the job the server returned", kv("job", job.key()),
                    kv("error", e.what()));
      }
      return kube::ok_status();
    }
    if (!r.is(ErrorKind::Conflict) || attempt >= 2) return r.error();
    // Someone else changed the job. If only spec or metadata moved (a user scaling it, a label),
    // the status we computed still stands: retry on the fresh resourceVersion. If the status
    // moved, our computation is stale: fail and let the request be processed again.
    auto fresh = writer_.get(resources::jobs, job.namespace_, job.name);
    if (!fresh.ok()) return fresh.error();
    std::shared_ptr<Job> parsed;
    try {
      parsed = job_from_json(*fresh);
    } catch (const std::exception& e) {
      return r.error();
    }
    if (parsed->uid != job.uid || !(parsed->status == job.status)) return r.error();
    // Retry on the fresh job as a whole: the write's reply is read as "this job, new version
    // and status" (job_after_status_write), so its spec and metadata must be the server's.
    job = std::move(*parsed);
  }
}

kube::events::ObjectReference job_reference(const Job& job) {
  kube::events::ObjectReference ref;
  ref.kind = kJobKind;
  ref.api_version = kJobApiVersion;
  ref.namespace_ = job.namespace_;
  ref.name = job.name;
  ref.uid = job.uid;
  ref.resource_version = job.resource_version;
  return ref;
}

void JobSyncer::event(const Job& job, bool warning, const char* reason, std::string message) {
  recorder_.event(job_reference(job),
                  warning ? kube::events::EventType::Warning : kube::events::EventType::Normal,
                  reason, std::move(message));
}

}  // namespace vc::controllers::job
