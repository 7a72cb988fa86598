#pragma once
// JobFlow probes (ours, behind --jobflow-probes; docs/jobflow-probes.md): when a step's
// `dependsOn.probe` may start it before its targets have completed. Volcano v1.15.1 decodes the
// probe and ignores it (spec controller-manager.md §5.2); with the flag off so do we.
//
// The rule, per step with a non-empty probe:
//   - every target's Job must exist;
//   - a probe entry names a task; it applies to each target Job that has a task of that name,
//     and a target Job that is Completed satisfies every entry on it (a probe can only start a
//     step earlier than completion would, never hold it back);
//   - taskStatusList {taskName, phase}: passes when status.taskStatusCount[task][phase] reaches
//     the task's replicas (at least 1);
//   - tcpSocketList {taskName, port} and httpGetList {taskName, path, port, httpHeader}: passes
//     when each pod of the task is Running with an IP and accepts a TCP connection on the port
//     (TCP), or answers GET path with a status from 200 to 399 (HTTP), as a kubelet probe does;
//   - an entry whose task is in no target Job never passes (the step waits, as it would for a
//     target that never completes);
//   - a target Job with none of the probed tasks must be Completed, as without a probe.
// The network checks run off the worker (prober.h); the plan reads their last results.
//
// Threads: pure functions over plain data.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/volcano/job.h"
#include "common/volcano/job_flow.h"

namespace vc::controllers::jobflow {

// One network check of one target Job's task: every pod of the task must pass it.
struct ProbeCheck {
  enum class Kind { kTcpSocket, kHttpGet };
  Kind kind = Kind::kTcpSocket;
  std::string namespace_;
  std::string job;
  std::string task;
  std::int64_t port = 0;
  std::string path;            // HTTP only
  volcano::HttpHeader header;  // HTTP only; name empty = none
  // Identifies the check in the prober's results (kind, job, task, port, path, header).
  std::string key() const;
  std::string describe() const;  // e.g. "tcpSocket team/flow-server task srv port 8080"
  friend bool operator==(const ProbeCheck&, const ProbeCheck&) = default;
};

const char* kind_name(ProbeCheck::Kind kind);  // "tcpSocket", "httpGet"

// Fresh results of network checks by ProbeCheck::key(): true = passed.
using ProbeResults = std::map<std::string, bool>;

// Whether a step's dependencies let it start, decided by the rule above.
struct ProbeVerdict {
  bool ready = false;
  std::vector<ProbeCheck> checks;  // network checks without a passing result, to run
  std::string waiting_on;          // what holds the step, for the log; "" when ready
};

// jobs: the target Jobs by target (flow) name, absent when not created yet.
ProbeVerdict probe_verdict(const std::string& ns, const volcano::FlowDependsOn& depends_on,
                           const std::map<std::string, const volcano::Job*>& jobs,
                           const ProbeResults& results);

// Whether a probe has any entry (an empty `probe: {}` gates nothing).
bool has_entries(const volcano::FlowProbe& probe);

// The IPs a network check must reach, from a pods List of the task: each pod Running with a
// status.podIP. An error (no pods; a pod not Running or without an IP) fails the check with that
// reason.
struct ProbeEndpoints {
  std::vector<std::string> ips;
  std::string error;
};
ProbeEndpoints probe_endpoints(const nlohmann::json& pod_list);

// The label selector of a check's pods: "volcano.sh/job-name=<job>,volcano.sh/task-spec=<task>".
std::string probe_pod_selector(const ProbeCheck& check);

}  // namespace vc::controllers::jobflow
