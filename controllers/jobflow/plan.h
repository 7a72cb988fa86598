#pragma once
// One sync of a JobFlow, decided from a snapshot (spec controller-manager.md §5.2): which of its
// flows' Jobs to create now (a flow runs when every flow it depends on has a Completed Job, or,
// with --jobflow-probes, when its probe passes as probes.h says), the
// status recomputed from the flow's Jobs, the phase rule of the flow's current phase, and, for a
// Succeed flow with jobRetainPolicy delete, the Jobs to delete. The executor (executor.h)
// performs it.
//
// Threads: pure functions over plain data.

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/time.h"
#include "common/volcano/job.h"
#include "common/volcano/job_flow.h"
#include "controllers/jobflow/probes.h"
#include "controllers/jobflow/views.h"

namespace vc::controllers::jobflow {

// Labels and annotations a flow's Job carries: "<namespace>.<name>" of its template and flow.
inline constexpr const char* kCreatedByJobTemplate = "volcano.sh/createdByJobTemplate";
inline constexpr const char* kCreatedByJobFlow = "volcano.sh/createdByJobFlow";

struct Snapshot {
  const volcano::JobFlow* flow = nullptr;
  // The Volcano Jobs of the flow's namespace by name (at least those named after the flow's
  // steps and their targets), and those labelled as this flow's, in cache order.
  std::map<std::string, const volcano::Job*> jobs_by_name{};
  std::vector<const volcano::Job*> flow_jobs{};
  // The JobTemplates of the flow's namespace by name (at least those its steps name).
  std::map<std::string, const JobTemplateView*> templates{};
  api::TimePoint now{};
  // --jobflow-probes (ours): a step's dependsOn.probe gates it as probes.h says, judged on these
  // results of the prober's network checks. Off, probes are ignored, as Volcano ignores them.
  bool probes = false;
  ProbeResults probe_results{};
  // --jobflow-patches (ours): a step's patch.jobSpec is merged into its template (patch.h).
  // Off, patches are ignored, as Volcano ignores them.
  bool patches = false;
};

struct FlowJob {
  std::string name;
  nlohmann::json job;  // the whole object to POST
  friend bool operator==(const FlowJob&, const FlowJob&) = default;
};

struct Plan {
  bool act = true;                   // false: a Failed or Terminating flow, nothing to do
  std::vector<std::string> deletes;  // Succeed + retain policy delete: every Job of the flow
  std::vector<FlowJob> creates;      // in flow order
  std::string error;                 // after the creates: stop and retry (no status write)
  // Steps held by their probes: the network checks to run (each once) and, per step, why.
  std::vector<ProbeCheck> probe_checks;
  std::vector<std::string> probe_waits;  // "<step>: <what holds it>"
  volcano::JobFlowStatus status;
  bool status_changed = false;
  // The phase the rule moved the flow to, for the phase counters.
  bool became_succeed = false;
  bool became_failed = false;
};

Plan plan_sync(const Snapshot& snapshot);

// "<flow>-<template>", Volcano's name for a flow's Job.
std::string flow_job_name(const std::string& job_flow, const std::string& flow);

// The Job of one flow: the template's spec (patched, when the snapshot says so, by the caller),
// the two labels and annotations, a controller reference to the JobFlow.
nlohmann::json job_for_flow(const volcano::JobFlow& job_flow, const std::string& flow,
                            const nlohmann::json& template_spec);

// The status recomputed from the flow's Jobs (phase lists, conditions, jobStatusList with its
// running histories stamped `now` when a Job's phase changed); the phase is carried over.
volcano::JobFlowStatus flow_status(const volcano::JobFlowStatus& old,
                                   const std::vector<const volcano::Job*>& jobs,
                                   api::TimePoint now);

}  // namespace vc::controllers::jobflow
