#include "controllers/jobflow/plan.h"

#include <algorithm>
#include <chrono>

#include "common/go/duration.h"
#include "controllers/jobflow/patch.h"

namespace vc::controllers::jobflow {
namespace {

using nlohmann::json;
namespace phase = volcano::flow_phase;

std::optional<std::chrono::nanoseconds> running_duration(const volcano::Job& job) {
  if (!job.status.running_duration) return std::nullopt;
  auto d = go::parse_duration(*job.status.running_duration);
  if (!d) return std::nullopt;
  return *d;
}

// The histories of a Job carried over from the last status, with a new entry when its phase
// changed (the previous one ends now).
std::vector<volcano::JobRunningHistory> histories_of(const std::vector<volcano::FlowJobStatus>& old,
                                                     const volcano::Job& job, api::TimePoint now) {
  const std::string& phase = job.status.phase;
  const volcano::FlowJobStatus* known = nullptr;
  for (const auto& s : old) {
    if (s.name == job.name && !s.running_histories.empty()) known = &s;
  }
  if (known == nullptr) {
    if (phase.empty()) return {};
    return {{.start_timestamp = now, .end_timestamp = std::nullopt, .state = phase}};
  }
  auto out = known->running_histories;
  if (out.back().state != phase) {
    out.back().end_timestamp = now;
    out.push_back({.start_timestamp = now, .end_timestamp = std::nullopt, .state = phase});
  }
  return out;
}

// Which Jobs of the flow may be created now, in flow order; an error for a missing template.
void plan_creates(const Snapshot& s, Plan& plan) {
  const volcano::JobFlow& jf = *s.flow;
  for (const volcano::Flow& flow : jf.spec.flows) {
    const std::string name = flow_job_name(jf.name, flow.name);
    if (s.jobs_by_name.contains(name)) continue;
    bool ready = true;
    if (flow.depends_on && s.probes && flow.depends_on->probe &&
        has_entries(*flow.depends_on->probe)) {
      std::map<std::string, const volcano::Job*> targets;
      for (const std::string& target : flow.depends_on->targets) {
        const auto it = s.jobs_by_name.find(flow_job_name(jf.name, target));
        if (it != s.jobs_by_name.end()) targets[target] = it->second;
      }
      ProbeVerdict verdict =
          probe_verdict(jf.namespace_, *flow.depends_on, targets, s.probe_results);
      ready = verdict.ready;
      if (!ready) {
        plan.probe_waits.push_back(flow.name + ": " + verdict.waiting_on);
        for (ProbeCheck& c : verdict.checks) {
          if (std::find(plan.probe_checks.begin(), plan.probe_checks.end(), c) ==
              plan.probe_checks.end()) {
            plan.probe_checks.push_back(std::move(c));
          }
        }
      }
    } else if (flow.depends_on) {
      for (const std::string& target : flow.depends_on->targets) {
        const auto it = s.jobs_by_name.find(flow_job_name(jf.name, target));
        if (it == s.jobs_by_name.end() || it->second->status.phase != "Completed") {
          ready = false;
          break;
        }
      }
    }
    if (!ready) continue;
    const auto t = s.templates.find(flow.name);
    if (t == s.templates.end()) {
      plan.error = "jobtemplate.flow.volcano.sh \"" + flow.name + "\" not found";
      return;
    }
    if (s.patches && flow.patch_spec.is_object()) {
      plan.creates.push_back(
          {name, job_for_flow(jf, flow.name, apply_flow_patch(t->second->spec, flow.patch_spec))});
    } else {
      plan.creates.push_back({name, job_for_flow(jf, flow.name, t->second->spec)});
    }
  }
}

// The phase rule of the flow's current phase.
void apply_phase_rule(const std::string& current, std::size_t flows, Plan& plan) {
  volcano::JobFlowStatus& st = plan.status;
  if (current.empty() || current == phase::kPending) {
    if ((!st.running_jobs.empty() || !st.completed_jobs.empty()) && st.failed_jobs.empty()) {
      st.phase = phase::kRunning;
    } else if (!st.failed_jobs.empty() || !st.terminated_jobs.empty()) {
      st.phase = phase::kFailed;
      plan.became_failed = true;
    } else {
      st.phase = phase::kPending;
    }
  } else if (current == phase::kRunning) {
    if (st.completed_jobs.size() == flows) {
      st.phase = phase::kSucceed;
      plan.became_succeed = true;
    } else if (!st.failed_jobs.empty()) {
      st.phase = phase::kFailed;
    }
  }
}

}  // namespace

std::string flow_job_name(const std::string& job_flow, const std::string& flow) {
  return job_flow + "-" + flow;
}

json job_for_flow(const volcano::JobFlow& jf, const std::string& flow, const json& template_spec) {
  const json marks = {{kCreatedByJobTemplate, jf.namespace_ + "." + flow},
                      {kCreatedByJobFlow, jf.namespace_ + "." + jf.name}};
  return {{"apiVersion", "batch.volcano.sh/v1alpha1"},
          {"kind", "Job"},
          {"metadata",
           {{"name", flow_job_name(jf.name, flow)},
            {"namespace", jf.namespace_},
            {"labels", marks},
            {"annotations", marks},
            {"ownerReferences", json::array({{{"apiVersion", volcano::kJobFlowApiVersion},
                                              {"kind", volcano::kJobFlowKind},
                                              {"name", jf.name},
                                              {"uid", jf.uid},
                                              {"controller", true},
                                              {"blockOwnerDeletion", true}}})}}},
          {"spec", template_spec.is_null() ? json::object() : template_spec}};
}

volcano::JobFlowStatus flow_status(const volcano::JobFlowStatus& old,
                                   const std::vector<const volcano::Job*>& jobs,
                                   api::TimePoint now) {
  volcano::JobFlowStatus st;
  st.phase = old.phase;
  st.job_status_list = old.job_status_list;  // entries are updated in place, never pruned
  for (const volcano::Job* job : jobs) {
    const std::string& p = job->status.phase;
    if (p == "Pending") {
      st.pending_jobs.push_back(job->name);
    } else if (p == "Running") {
      st.running_jobs.push_back(job->name);
    } else if (p == "Completed") {
      st.completed_jobs.push_back(job->name);
    } else if (p == "Terminated") {
      st.terminated_jobs.push_back(job->name);
    } else if (p == "Failed") {
      st.failed_jobs.push_back(job->name);
    } else if (p != "Completing" && p != "Terminating") {
      st.unknown_jobs.push_back(job->name);  // Aborting, Aborted, Restarting, ""
    }
    const auto duration = running_duration(*job);
    st.conditions[job->name] = {.phase = p,
                                .create_time = job->creation_timestamp,
                                .running_duration = duration,
                                .task_status_count = job->status.task_status_count};
    volcano::FlowJobStatus entry{.name = job->name,
                                 .state = p,
                                 .start_timestamp = job->creation_timestamp,
                                 .end_timestamp = std::nullopt,
                                 .restart_count = job->status.retry_count,
                                 .running_histories = histories_of(old.job_status_list, *job, now)};
    if (duration && job->creation_timestamp) {
      entry.end_timestamp = *job->creation_timestamp +
                            std::chrono::duration_cast<api::TimePoint::duration>(*duration);
    }
    bool found = false;
    for (auto& e : st.job_status_list) {
      if (e.name == entry.name) {
        e = entry;
        found = true;
      }
    }
    if (!found) st.job_status_list.push_back(std::move(entry));
  }
  return st;
}

Plan plan_sync(const Snapshot& s) {
  const volcano::JobFlow& jf = *s.flow;
  Plan plan;
  plan.status = jf.status;
  const std::string& current = jf.status.phase;
  if (current == phase::kFailed || current == phase::kTerminating) {
    plan.act = false;
    return plan;
  }
  if (!current.empty() && current != phase::kPending && current != phase::kRunning &&
      current != phase::kSucceed) {
    plan.error = "jobflow " + jf.name + " state {" + current + "} is invalid";
    return plan;
  }
  if (current == phase::kSucceed && jf.spec.job_retain_policy == volcano::retain_policy::kDelete) {
    for (const volcano::Job* job : s.flow_jobs) plan.deletes.push_back(job->name);
    return plan;
  }
  plan_creates(s, plan);
  if (!plan.error.empty()) return plan;
  plan.status = flow_status(jf.status, s.flow_jobs, s.now);
  apply_phase_rule(current, jf.spec.flows.size(), plan);
  plan.status_changed = !(plan.status == jf.status);
  return plan;
}

}  // namespace vc::controllers::jobflow
