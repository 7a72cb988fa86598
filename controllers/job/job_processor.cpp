#include "controllers/job/job_processor.h"

#include "common/go/duration.h"
#include "common/kube/client.h"
#include "common/kube/fault_scope.h"
#include "common/kube/resource.h"
#include "common/log/log.h"
#include "controllers/job/model/command.h"
#include "controllers/job/state/policy.h"
#include "controllers/job/state/state_machine.h"
#include "controllers/views/command_view.h"

namespace vc::controllers::job {

namespace {

KillTarget target_for(const std::string& action, const Request& req) {
  KillTarget t{.task = req.task_name, .pod = {}, .partition = {}, .kind = KillTarget::Kind::Task};
  if (action == action::kRestartPod) {
    t.kind = KillTarget::Kind::Pod;
    t.pod = req.pod_name;
  } else if (action == action::kRestartPartition) {
    t.kind = KillTarget::Kind::Partition;
    t.partition = req.partition_id;
  }
  return t;
}

bool is_target_action(const std::string& action) {
  return action == action::kRestartTask || action == action::kRestartPod ||
         action == action::kRestartPartition;
}

}  // namespace

JobProcessor::JobProcessor(JobStore& jobs, JobSyncer& syncer, DelayedActions& delayed,
                           kube::events::EventRecorder& recorder, kube::ObjectWriter& writer,
                           const kube::cache::Store* commands, ProcessorHooks hooks)
    : jobs_(jobs),
      syncer_(syncer),
      delayed_(delayed),
      recorder_(recorder),
      writer_(writer),
      commands_(commands),
      hooks_(std::move(hooks)) {}

void JobProcessor::event(const Job& job, const std::string& message) {
  recorder_.event(job_reference(job), kube::events::EventType::Normal, "ExecuteAction", message);
}

ReconcileResult JobProcessor::process(const Request& req) {
  if (is_pod_event(req.event) && req.event != event::kPodPending) {
    delayed_.cancel_for_pod_event(req);
  }
  JobPtr job = jobs_.get(req.job_key());
  if (!job) {
    VC_LOG_DEBUG("job is not cached; dropping request", kv("job", req.job_key()),
                 kv("event", req.event));
    return ReconcileResult::ok();
  }
  const PolicyDecision decision = apply_policies(*job, req);
  if (decision.delay.count() > 0) {
    event(*job,
          "Execute action " + decision.action + " after " + go::format_duration(decision.delay));
    if (delayed_.add(req, decision.action, hooks_.now() + decision.delay) && hooks_.wake_timer) {
      hooks_.wake_timer();
    }
    return ReconcileResult::ok();
  }
  if (decision.action != action::kSyncJob) {
    event(*job, "Start to execute action " + decision.action + " ");
  }
  const Operation op = resolve_operation(state_of(job->status.phase), decision.action);
  const KillTarget target = target_for(decision.action, req);
  const api::Status done =
      syncer_.execute(*job, op, is_target_action(decision.action) ? &target : nullptr);
  if (!done) {
    // A failure the API server's trouble or an exception caused is logged by the worker loop
    // (transient ones rate-limited); at warn here, an outage would log a line per job and retry.
    const kube::FaultScope* scope = kube::FaultScope::current();
    if (scope != nullptr && (scope->transient_errors() > 0 || scope->exceptions() > 0)) {
      VC_LOG_DEBUG("job action failed", kv("job", req.job_key()), kv("action", decision.action),
                   kv("error", done.error()));
    } else {
      VC_LOG_WARN("job action failed", kv("job", req.job_key()), kv("action", decision.action),
                  kv("error", done.error()));
    }
    return ReconcileResult::error(done.error());
  }
  if (!is_internal_action(decision.action)) {
    delayed_.cancel_same_type(req, decision.action);
  }
  // The job's namespace refused a create lately as it is being deleted, so this sync may have
  // created nothing: sync again when the hold ends (the namespace may have been created anew).
  // Only a plain sync is repeated: running another action twice would apply it twice.
  if (const auto held = syncer_.creates_held_for(job->namespace_);
      decision.action == action::kSyncJob && held.count() > 0) {
    return ReconcileResult::requeue_after(std::chrono::ceil<std::chrono::milliseconds>(held));
  }
  return ReconcileResult::ok();
}

void JobProcessor::give_up(const Request& req, const std::string& error) {
  JobPtr job = jobs_.get(req.job_key());
  if (!job) return;
  const PolicyDecision decision = apply_policies(*job, req);
  VC_LOG_WARN("job request failed too often; terminating the job", kv("job", req.job_key()),
              kv("action", decision.action), kv("error", error));
  event(*job, "Job failed on action " + decision.action + " for retry limit reached");
  const Operation op = resolve_operation(state_of(job->status.phase), action::kTerminateJob);
  if (const api::Status done = syncer_.execute(*job, op, nullptr); !done) {
    VC_LOG_ERROR("cannot terminate the job", kv("job", req.job_key()), kv("error", done.error()));
  }
}

ReconcileResult JobProcessor::process_command(const std::string& key) {
  if (!commands_) return ReconcileResult::ok();
  auto obj = views::as_command(commands_->get(key));
  if (!obj) return ReconcileResult::ok();
  auto cmd = job_command(*obj);
  if (!cmd) return ReconcileResult::ok();
  kube::DeleteOptions opts;
  if (!obj->uid.empty()) opts.precondition_uid = obj->uid;
  auto removed = writer_.remove(kube::resources::commands, obj->namespace_, obj->name, opts);
  if (removed.is(kube::ErrorKind::NotFound)) return ReconcileResult::ok();
  if (!removed.ok()) return ReconcileResult::error(removed.error().describe());
  Request req = job_request(obj->namespace_, cmd->target_name, event::kCommandIssued);
  req.action = cmd->action;
  if (JobPtr job = jobs_.get(req.job_key())) {
    recorder_.event(job_reference(*job), kube::events::EventType::Normal, "CommandIssued",
                    "Start to execute command " + cmd->action +
                        ", and clean it up to make sure executed not more than once.");
  }
  if (hooks_.enqueue) hooks_.enqueue(req);
  return ReconcileResult::ok();
}

}  // namespace vc::controllers::job
