#pragma once
// The Volcano JobFlow (flow.volcano.sh/v1alpha1), typed: an ordered set of JobTemplates run as
// Volcano Jobs, each once the jobs it depends on have completed
// (spec controller-manager.md §5.1, §5.2). Decoded with the rules of json_read.h; a flow's
// patch.jobSpec by decode_job_spec (templates interned). Volcano ignores `patch` and
// `dependsOn.probe` (spec controller-manager.md §6.3.16); they are decoded all the same, so a
// stored JobFlow reads whole.
//
// encode_job_flow_status writes JobFlowStatus as Go's encoding/json does:
//   - the six job-name lists, jobStatusList and conditions are omitted when empty;
//   - `state` is always written (a struct), its `phase` omitted when empty: {"state": {}};
//   - a jobStatusList entry omits name, state, restartCount and runningHistories when empty or
//     0, and always writes startTimestamp and endTimestamp (metav1.Time), null when unset; a
//     runningHistories entry likewise (state omitted when empty);
//   - a condition omits phase when empty, runningDuration when unset (else Go's
//     Duration.String(), e.g. "1m30s") and taskStatusCount when empty, and always writes
//     createTime, null when unset.
// Timestamps are RFC 3339 with whole seconds.
//
// Threads: plain values and pure functions; a cached JobFlow is immutable.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/time.h"
#include "common/volcano/job_decode.h"
#include "common/volcano/json_read.h"
#include "common/volcano/object_meta.h"
#include "common/volcano/task_status_count.h"

namespace vc::volcano {

inline constexpr const char* kJobFlowApiVersion = "flow.volcano.sh/v1alpha1";
inline constexpr const char* kJobFlowKind = "JobFlow";

// status.state.phase values.
namespace flow_phase {
inline constexpr const char* kSucceed = "Succeed";
inline constexpr const char* kTerminating = "Terminating";
inline constexpr const char* kFailed = "Failed";
inline constexpr const char* kRunning = "Running";
inline constexpr const char* kPending = "Pending";
}  // namespace flow_phase

// spec.jobRetainPolicy values.
namespace retain_policy {
inline constexpr const char* kRetain = "retain";
inline constexpr const char* kDelete = "delete";
}  // namespace retain_policy

struct HttpHeader {
  std::string name;
  std::string value;
  friend bool operator==(const HttpHeader&, const HttpHeader&) = default;
};

struct HttpGetProbe {
  std::string task_name;
  std::string path;
  std::int64_t port = 0;  // Go's int
  HttpHeader http_header;
  friend bool operator==(const HttpGetProbe&, const HttpGetProbe&) = default;
};

struct TcpSocketProbe {
  std::string task_name;
  std::int64_t port = 0;  // Go's int
  friend bool operator==(const TcpSocketProbe&, const TcpSocketProbe&) = default;
};

struct TaskStatusProbe {
  std::string task_name;
  std::string phase;
  friend bool operator==(const TaskStatusProbe&, const TaskStatusProbe&) = default;
};

struct FlowProbe {
  std::vector<HttpGetProbe> http_get_list;
  std::vector<TcpSocketProbe> tcp_socket_list;
  std::vector<TaskStatusProbe> task_status_list;
  friend bool operator==(const FlowProbe&, const FlowProbe&) = default;
};

struct FlowDependsOn {
  std::vector<std::string> targets;  // names of other flows
  std::optional<FlowProbe> probe;
  friend bool operator==(const FlowDependsOn&, const FlowDependsOn&) = default;
};

struct Flow {
  std::string name;  // the JobTemplate's name
  std::optional<FlowDependsOn> depends_on;
  std::optional<JobSpec> patch;  // patch.jobSpec; nullopt when `patch` is absent
  // patch.jobSpec as stored, null when absent: what --jobflow-patches merges into the template
  // (controllers/jobflow/patch.h).
  nlohmann::json patch_spec;
  friend bool operator==(const Flow&, const Flow&) = default;
};

struct JobFlowSpec {
  std::vector<Flow> flows;
  std::string job_retain_policy;
  friend bool operator==(const JobFlowSpec&, const JobFlowSpec&) = default;
};

struct JobRunningHistory {
  std::optional<api::TimePoint> start_timestamp;
  std::optional<api::TimePoint> end_timestamp;
  std::string state;  // a Job phase
  friend bool operator==(const JobRunningHistory&, const JobRunningHistory&) = default;
};

// One entry of status.jobStatusList.
struct FlowJobStatus {
  std::string name;
  std::string state;  // a Job phase
  std::optional<api::TimePoint> start_timestamp;
  std::optional<api::TimePoint> end_timestamp;
  std::int32_t restart_count = 0;
  std::vector<JobRunningHistory> running_histories;
  friend bool operator==(const FlowJobStatus&, const FlowJobStatus&) = default;
};

// One value of status.conditions (keyed by job name).
struct FlowCondition {
  std::string phase;  // a Job phase
  std::optional<api::TimePoint> create_time;
  std::optional<std::chrono::nanoseconds> running_duration;
  TaskStatusCount task_status_count;
  friend bool operator==(const FlowCondition&, const FlowCondition&) = default;
};

struct JobFlowStatus {
  std::vector<std::string> pending_jobs;
  std::vector<std::string> running_jobs;
  std::vector<std::string> failed_jobs;
  std::vector<std::string> completed_jobs;
  std::vector<std::string> terminated_jobs;
  std::vector<std::string> unknown_jobs;  // "unKnowJobs" in JSON
  std::vector<FlowJobStatus> job_status_list;
  std::map<std::string, FlowCondition> conditions;
  std::string phase;  // status.state.phase
  friend bool operator==(const JobFlowStatus&, const JobFlowStatus&) = default;
};

struct JobFlow : ObjectMeta {
  JobFlowSpec spec;
  JobFlowStatus status;
};

// Decodes a whole JobFlow (metadata, spec, status) into out. Throws DecodeError.
void decode_job_flow(const nlohmann::json& job_flow, JobFlow& out,
                     const FieldPath& root = FieldPath(),
                     TemplateMode templates = TemplateMode::kIntern);
JobFlowStatus decode_job_flow_status(const nlohmann::json& status, const FieldPath& at);

nlohmann::json encode_job_flow_status(const JobFlowStatus& status);

}  // namespace vc::volcano
