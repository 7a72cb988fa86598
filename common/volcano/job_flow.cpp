#include "common/volcano/job_flow.h"

#include "common/go/duration.h"
#include "common/volcano/job_decode.h"
#include "common/volcano/json_write.h"

namespace vc::volcano {

using nlohmann::json;

namespace {

FlowProbe probe_from_json(const json& probe, const FieldPath& at) {
  FlowProbe out;
  read::each_at(probe, "httpGetList", at, [&](const json& h, const FieldPath& hp) {
    HttpGetProbe get;
    get.task_name = read::string_at(h, "taskName", hp);
    get.path = read::string_at(h, "path", hp);
    get.port = read::int64_at(h, "port", hp);
    if (const json* header = read::object_at(h, "httpHeader", hp); header != nullptr) {
      const FieldPath p = hp.key("httpHeader");
      get.http_header = {read::string_at(*header, "name", p), read::string_at(*header, "value", p)};
    }
    out.http_get_list.push_back(std::move(get));
  });
  read::each_at(probe, "tcpSocketList", at, [&](const json& t, const FieldPath& tp) {
    out.tcp_socket_list.push_back(
        {read::string_at(t, "taskName", tp), read::int64_at(t, "port", tp)});
  });
  read::each_at(probe, "taskStatusList", at, [&](const json& t, const FieldPath& tp) {
    out.task_status_list.push_back(
        {read::string_at(t, "taskName", tp), read::string_at(t, "phase", tp)});
  });
  return out;
}

Flow flow_from_json(const json& f, const FieldPath& at, TemplateMode templates) {
  Flow out;
  out.name = read::string_at(f, "name", at);
  if (const json* d = read::object_at(f, "dependsOn", at); d != nullptr) {
    const FieldPath dp = at.key("dependsOn");
    FlowDependsOn depends_on;
    depends_on.targets = read::strings_at(*d, "targets", dp);
    if (const json* probe = read::object_at(*d, "probe", dp); probe != nullptr) {
      depends_on.probe = probe_from_json(*probe, dp.key("probe"));
    }
    out.depends_on = std::move(depends_on);
  }
  if (const json* patch = read::object_at(f, "patch", at); patch != nullptr) {
    const FieldPath pp = at.key("patch");
    // Patch embeds the JobSpec under the tag "jobSpec"; absent, it is the zero JobSpec.
    const json* spec = read::object_at(*patch, "jobSpec", pp);
    out.patch = spec == nullptr ? JobSpec() : decode_job_spec(*spec, pp.key("jobSpec"), templates);
    if (spec != nullptr) out.patch_spec = *spec;
  }
  return out;
}

std::vector<JobRunningHistory> running_histories_at(const json& entry, const FieldPath& at) {
  std::vector<JobRunningHistory> out;
  read::each_at(entry, "runningHistories", at, [&](const json& h, const FieldPath& hp) {
    out.push_back({read::time_at(h, "startTimestamp", hp), read::time_at(h, "endTimestamp", hp),
                   read::string_at(h, "state", hp)});
  });
  return out;
}

FlowJobStatus job_status_from_json(const json& s, const FieldPath& at) {
  FlowJobStatus out;
  out.name = read::string_at(s, "name", at);
  out.state = read::string_at(s, "state", at);
  out.start_timestamp = read::time_at(s, "startTimestamp", at);
  out.end_timestamp = read::time_at(s, "endTimestamp", at);
  out.restart_count = read::int32_at(s, "restartCount", at);
  out.running_histories = running_histories_at(s, at);
  return out;
}

FlowCondition condition_from_json(const json& c, const FieldPath& at) {
  FlowCondition out;
  out.phase = read::string_at(c, "phase", at);
  out.create_time = read::time_at(c, "createTime", at);
  out.running_duration = read::duration_at(c, "runningDuration", at);
  out.task_status_count = task_status_count_at(c, "taskStatusCount", at);
  return out;
}

json encode_running_history(const JobRunningHistory& h) {
  json out = {{"startTimestamp", write::time_or_null(h.start_timestamp)},
              {"endTimestamp", write::time_or_null(h.end_timestamp)}};
  write::nonempty(out, "state", h.state);
  return out;
}

json encode_flow_job_status(const FlowJobStatus& s) {
  json out = {{"startTimestamp", write::time_or_null(s.start_timestamp)},
              {"endTimestamp", write::time_or_null(s.end_timestamp)}};
  write::nonempty(out, "name", s.name);
  write::nonempty(out, "state", s.state);
  write::nonzero(out, "restartCount", s.restart_count);
  write::list(out, "runningHistories", s.running_histories, encode_running_history);
  return out;
}

json encode_flow_condition(const FlowCondition& c) {
  json out = {{"createTime", write::time_or_null(c.create_time)}};
  write::nonempty(out, "phase", c.phase);
  if (c.running_duration) out["runningDuration"] = go::format_duration(*c.running_duration);
  if (!c.task_status_count.empty()) {
    out["taskStatusCount"] = encode_task_status_count(c.task_status_count);
  }
  return out;
}

}  // namespace

JobFlowStatus decode_job_flow_status(const json& status, const FieldPath& at) {
  JobFlowStatus out;
  if (status.is_null()) return out;
  read::object(status, at);
  out.pending_jobs = read::strings_at(status, "pendingJobs", at);
  out.running_jobs = read::strings_at(status, "runningJobs", at);
  out.failed_jobs = read::strings_at(status, "failedJobs", at);
  out.completed_jobs = read::strings_at(status, "completedJobs", at);
  out.terminated_jobs = read::strings_at(status, "terminatedJobs", at);
  out.unknown_jobs = read::strings_at(status, "unKnowJobs", at);
  read::each_at(status, "jobStatusList", at, [&](const json& s, const FieldPath& sp) {
    out.job_status_list.push_back(job_status_from_json(s, sp));
  });
  read::each_entry_at(
      status, "conditions", at, [&](std::string_view job, const json& c, const FieldPath& cp) {
        static const json kZeroCondition = json::object();
        out.conditions[std::string(job)] =
            condition_from_json(c.is_null() ? kZeroCondition : read::object(c, cp), cp);
      });
  if (const json* state = read::object_at(status, "state", at); state != nullptr) {
    out.phase = read::string_at(*state, "phase", at.key("state"));
  }
  return out;
}

void decode_job_flow(const json& job_flow, JobFlow& out, const FieldPath& root,
                     TemplateMode templates) {
  read::object(job_flow, root);
  decode_object_meta(job_flow, root, out);
  if (const json* spec = read::object_at(job_flow, "spec", root); spec != nullptr) {
    const FieldPath sp = root.key("spec");
    read::each_at(*spec, "flows", sp, [&](const json& f, const FieldPath& fp) {
      out.spec.flows.push_back(flow_from_json(f, fp, templates));
    });
    out.spec.job_retain_policy = read::string_at(*spec, "jobRetainPolicy", sp);
  }
  if (const json* status = read::object_at(job_flow, "status", root); status != nullptr) {
    out.status = decode_job_flow_status(*status, root.key("status"));
  }
}

json encode_job_flow_status(const JobFlowStatus& s) {
  json out = json::object();
  write::strings(out, "pendingJobs", s.pending_jobs);
  write::strings(out, "runningJobs", s.running_jobs);
  write::strings(out, "failedJobs", s.failed_jobs);
  write::strings(out, "completedJobs", s.completed_jobs);
  write::strings(out, "terminatedJobs", s.terminated_jobs);
  write::strings(out, "unKnowJobs", s.unknown_jobs);
  write::list(out, "jobStatusList", s.job_status_list, encode_flow_job_status);
  if (!s.conditions.empty()) {
    json conditions = json::object();
    for (const auto& [job, c] : s.conditions) conditions[job] = encode_flow_condition(c);
    out["conditions"] = std::move(conditions);
  }
  json state = json::object();
  write::nonempty(state, "phase", s.phase);
  out["state"] = std::move(state);
  return out;
}

}  // namespace vc::volcano
