#include "controllers/job/model/status_json.h"

#include "common/go/duration.h"
#include "controllers/job/model/json_fields.h"

namespace vc::controllers::job {

using nlohmann::json;

namespace {

void put_nonzero(json& out, const char* key, std::int32_t v) {
  if (v != 0) out[key] = v;
}

void put_nonempty(json& out, const char* key, const std::string& v) {
  if (!v.empty()) out[key] = v;
}

json state_to_json(const JobStatus& s) {
  json state = json::object();
  put_nonempty(state, "phase", s.phase);
  put_nonempty(state, "reason", s.reason);
  put_nonempty(state, "message", s.message);
  state["lastTransitionTime"] =
      s.last_transition_time ? json(api::format_rfc3339(*s.last_transition_time)) : json(nullptr);
  return state;
}

void read_state(const json& status, const std::string& path, JobStatus& out) {
  const json* state = fields::object_at(status, "state", path);
  if (state == nullptr) return;
  const std::string p = fields::child(path, "state");
  out.phase = fields::string_at(*state, "phase", p);
  out.reason = fields::string_at(*state, "reason", p);
  out.message = fields::string_at(*state, "message", p);
  out.last_transition_time = fields::time_at(*state, "lastTransitionTime", p);
}

void read_task_status_count(const json& status, const std::string& path, JobStatus& out) {
  const json* counts = fields::object_at(status, "taskStatusCount", path);
  if (counts == nullptr) return;
  const std::string p = fields::child(path, "taskStatusCount");
  for (const auto& [task, state] : counts->items()) {
    const std::string task_path = fields::child(p, task);
    TaskPhaseCounts& phases = out.task_status_count[task];
    if (state.is_null()) continue;
    fields::require_object(state, task_path);
    const json* phase_map = fields::object_at(state, "phase", task_path);
    if (phase_map == nullptr) continue;
    const std::string phase_path = fields::child(task_path, "phase");
    for (const auto& [phase, n] : phase_map->items()) {
      phases[phase] = n.is_null() ? 0 : fields::int32_value(n, fields::child(phase_path, phase));
    }
  }
}

void read_conditions(const json& status, const std::string& path, JobStatus& out) {
  const json* list = fields::array_at(status, "conditions", path);
  if (list == nullptr) return;
  const std::string p = fields::child(path, "conditions");
  out.conditions.reserve(list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string cp = fields::item(p, i);
    const json& c = (*list)[i];
    JobCondition cond;
    if (!c.is_null()) {
      fields::require_object(c, cp);
      cond.status = fields::string_at(c, "status", cp);
      cond.last_transition_time = fields::time_at(c, "lastTransitionTime", cp);
    }
    out.conditions.push_back(std::move(cond));
  }
}

}  // namespace

json status_to_json(const JobStatus& s) {
  json out = json::object();
  out["state"] = state_to_json(s);
  put_nonzero(out, "minAvailable", s.min_available);
  if (!s.task_status_count.empty()) {
    json counts = json::object();
    for (const auto& [task, phases] : s.task_status_count) {
      json state = json::object();
      if (!phases.empty()) state["phase"] = phases;
      counts[task] = std::move(state);
    }
    out["taskStatusCount"] = std::move(counts);
  }
  put_nonzero(out, "pending", s.pending);
  put_nonzero(out, "running", s.running);
  put_nonzero(out, "succeeded", s.succeeded);
  put_nonzero(out, "failed", s.failed);
  put_nonzero(out, "terminating", s.terminating);
  put_nonzero(out, "unknown", s.unknown);
  put_nonzero(out, "version", s.version);
  put_nonzero(out, "retryCount", s.retry_count);
  if (s.running_duration) out["runningDuration"] = *s.running_duration;
  if (!s.controlled_resources.empty()) out["controlledResources"] = s.controlled_resources;
  if (!s.conditions.empty()) {
    json list = json::array();
    for (const JobCondition& c : s.conditions) {
      json cond = {{"status", c.status}};
      if (c.last_transition_time) {
        cond["lastTransitionTime"] = api::format_rfc3339(*c.last_transition_time);
      }
      list.push_back(std::move(cond));
    }
    out["conditions"] = std::move(list);
  }
  return out;
}

JobStatus status_from_json_at(const json& status, const std::string& path) {
  JobStatus out;
  if (status.is_null()) return out;
  fields::require_object(status, path);
  read_state(status, path, out);
  out.min_available = fields::int32_at(status, "minAvailable", path);
  read_task_status_count(status, path, out);
  out.pending = fields::int32_at(status, "pending", path);
  out.running = fields::int32_at(status, "running", path);
  out.succeeded = fields::int32_at(status, "succeeded", path);
  out.failed = fields::int32_at(status, "failed", path);
  out.terminating = fields::int32_at(status, "terminating", path);
  out.unknown = fields::int32_at(status, "unknown", path);
  out.version = fields::int32_at(status, "version", path);
  out.retry_count = fields::int32_at(status, "retryCount", path);
  if (const json* d = fields::find(status, "runningDuration"); d != nullptr) {
    const std::string p = fields::child(path, "runningDuration");
    std::string text = fields::string_value(*d, p);
    // Kept as text (it is only copied and written back), but checked as Go's decoder would.
    if (auto parsed = go::parse_duration(text); !parsed) fields::fail(p, parsed.error());
    out.running_duration = std::move(text);
  }
  out.controlled_resources = fields::string_map_at(status, "controlledResources", path);
  read_conditions(status, path, out);
  return out;
}

JobStatus status_from_json(const json& status) {
  return status_from_json_at(status, "status");
}

json status_update_body(const Job& job, const JobStatus& status) {
  json meta = {{"name", job.name}, {"namespace", job.namespace_}};
  if (!job.uid.empty()) meta["uid"] = job.uid;
  if (!job.resource_version.empty()) meta["resourceVersion"] = job.resource_version;
  return json{{"apiVersion", kJobApiVersion},
              {"kind", kJobKind},
              {"metadata", std::move(meta)},
              {"status", status_to_json(status)}};
}

}  // namespace vc::controllers::job
