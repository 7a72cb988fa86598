#include "common/volcano/job_decode.h"

#include "common/volcano/json_write.h"
#include "common/volcano/meta_types.h"
#include "common/volcano/task_status_count.h"

namespace vc::volcano {

using nlohmann::json;

std::optional<NetworkTopology> network_topology_at(const json& object, const FieldPath& at) {
  const json* nt = read::object_at(object, "networkTopology", at);
  if (nt == nullptr) return std::nullopt;
  const FieldPath p = at.key("networkTopology");
  NetworkTopology out;
  out.mode = read::string_at(*nt, "mode", p);
  out.highest_tier_allowed = read::opt_int64_at(*nt, "highestTierAllowed", p);
  out.highest_tier_name = read::string_at(*nt, "highestTierName", p);
  return out;
}

namespace {

std::vector<LifecyclePolicy> policies_at(const json& object, const FieldPath& at) {
  std::vector<LifecyclePolicy> out;
  read::each_at(object, "policies", at, [&](const json& p, const FieldPath& pp) {
    LifecyclePolicy policy;
    policy.action = read::string_at(p, "action", pp);
    policy.event = read::string_at(p, "event", pp);
    policy.events = read::strings_at(p, "events", pp);
    policy.exit_code = read::opt_int32_at(p, "exitCode", pp);
    policy.timeout = read::duration_at(p, "timeout", pp);
    out.push_back(std::move(policy));
  });
  return out;
}

std::optional<PartitionPolicy> partition_policy_at(const json& task, const FieldPath& at) {
  const json* pp = read::object_at(task, "partitionPolicy", at);
  if (pp == nullptr) return std::nullopt;
  const FieldPath p = at.key("partitionPolicy");
  PartitionPolicy out;
  out.total_partitions = read::int32_at(*pp, "totalPartitions", p);
  out.partition_size = read::int32_at(*pp, "partitionSize", p);
  out.min_partitions = read::int32_at(*pp, "minPartitions", p);
  out.network_topology = network_topology_at(*pp, p);
  return out;
}

void read_template(const json& task, const FieldPath& at, TemplateMode mode, TaskSpec& out) {
  // The template is kept as JSON (a v1.PodTemplateSpec is Kubernetes' type, not Volcano's);
  // the three fields every sync reads are taken out once here.
  const json* tmpl = read::opaque_at(task, "template", at);
  if (tmpl == nullptr) return;
  const FieldPath p = at.key("template");
  read::object(*tmpl, p);
  if (const json* spec = read::find(*tmpl, "spec", p); spec != nullptr) {
    const FieldPath sp = p.key("spec");
    read::object(*spec, sp);
    out.template_priority_class_name = read::string_at(*spec, "priorityClassName", sp);
    out.template_hostname = read::string_at(*spec, "hostname", sp);
    out.template_subdomain = read::string_at(*spec, "subdomain", sp);
  }
  out.pod_template =
      mode == TemplateMode::kBorrow ? PodTemplate::borrow(*tmpl) : PodTemplate::from_json(*tmpl);
}

TaskSpec task_from_json(const json& t, const FieldPath& at, TemplateMode mode) {
  TaskSpec out;
  out.name = read::string_at(t, "name", at);
  out.replicas = read::int32_at(t, "replicas", at);
  out.min_available = read::opt_int32_at(t, "minAvailable", at);
  out.max_retry = read::int32_at(t, "maxRetry", at);
  out.policies = policies_at(t, at);
  if (const json* d = read::object_at(t, "dependsOn", at); d != nullptr) {
    const FieldPath dp = at.key("dependsOn");
    out.depends_on =
        DependsOn{read::strings_at(*d, "name", dp), read::string_at(*d, "iteration", dp)};
  }
  out.topology_policy = read::string_at(t, "topologyPolicy", at);
  out.partition_policy = partition_policy_at(t, at);
  read_template(t, at, mode, out);
  return out;
}

VolumeSpec volume_from_json(const json& v, const FieldPath& at) {
  VolumeSpec out;
  out.mount_path = read::string_at(v, "mountPath", at);
  out.volume_claim_name = read::string_at(v, "volumeClaimName", at);
  // A v1.PersistentVolumeClaimSpec, Kubernetes' type: kept as text for the claim it creates.
  if (const json* claim = read::opaque_at(v, "volumeClaim", at); claim != nullptr) {
    out.volume_claim_text = read::object(*claim, at.key("volumeClaim")).dump();
  }
  return out;
}

std::vector<std::pair<std::string, std::vector<std::string>>> plugins_at(const json& spec,
                                                                         const FieldPath& at) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  // Entries come in key order, so the list is sorted by name.
  read::each_entry_at(
      spec, "plugins", at, [&](std::string_view name, const json& args, const FieldPath& ap) {
        std::vector<std::string> values;
        if (!args.is_null()) {
          read::array(args, ap);
          values.reserve(args.size());
          for (std::size_t i = 0; i < args.size(); ++i) {
            values.push_back(args[i].is_null() ? std::string()
                                               : read::string(args[i], ap.index(i)));
          }
        } else if (ap.trace() != nullptr) {
          ap.trace()->read.insert(ap.index(0).schema_text());
        }
        out.emplace_back(name, std::move(values));
      });
  return out;
}

void read_state(const json& status, const FieldPath& at, JobStatus& out) {
  const json* state = read::object_at(status, "state", at);
  if (state == nullptr) return;
  const FieldPath p = at.key("state");
  out.phase = read::string_at(*state, "phase", p);
  out.reason = read::string_at(*state, "reason", p);
  out.message = read::string_at(*state, "message", p);
  out.last_transition_time = read::time_at(*state, "lastTransitionTime", p);
}

void read_conditions(const json& status, const FieldPath& at, JobStatus& out) {
  read::each_at(status, "conditions", at, [&](const json& c, const FieldPath& cp) {
    JobCondition cond;
    cond.status = read::string_at(c, "status", cp);
    cond.last_transition_time = read::time_at(c, "lastTransitionTime", cp);
    out.conditions.push_back(std::move(cond));
  });
}

}  // namespace

JobSpec decode_job_spec(const json& spec, const FieldPath& at, TemplateMode templates) {
  JobSpec out;
  if (spec.is_null()) return out;
  read::object(spec, at);
  out.scheduler_name = read::string_at(spec, "schedulerName", at);
  out.min_available = read::int32_at(spec, "minAvailable", at);
  out.min_success = read::opt_int32_at(spec, "minSuccess", at);
  read::each_at(spec, "volumes", at, [&](const json& v, const FieldPath& vp) {
    out.volumes.push_back(volume_from_json(v, vp));
  });
  read::each_at(spec, "tasks", at, [&](const json& t, const FieldPath& tp) {
    out.tasks.push_back(task_from_json(t, tp, templates));
  });
  out.policies = policies_at(spec, at);
  out.plugins = plugins_at(spec, at);
  out.running_estimate = read::duration_at(spec, "runningEstimate", at);
  out.queue = read::string_at(spec, "queue", at);
  out.max_retry = read::int32_at(spec, "maxRetry", at);
  out.ttl_seconds_after_finished = read::opt_int32_at(spec, "ttlSecondsAfterFinished", at);
  out.priority_class_name = read::string_at(spec, "priorityClassName", at);
  out.network_topology = network_topology_at(spec, at);
  return out;
}

JobStatus decode_job_status(const json& status, const FieldPath& at) {
  JobStatus out;
  if (status.is_null()) return out;
  read::object(status, at);
  read_state(status, at, out);
  out.min_available = read::int32_at(status, "minAvailable", at);
  out.task_status_count = task_status_count_at(status, "taskStatusCount", at);
  out.pending = read::int32_at(status, "pending", at);
  out.running = read::int32_at(status, "running", at);
  out.succeeded = read::int32_at(status, "succeeded", at);
  out.failed = read::int32_at(status, "failed", at);
  out.terminating = read::int32_at(status, "terminating", at);
  out.unknown = read::int32_at(status, "unknown", at);
  out.version = read::int32_at(status, "version", at);
  out.retry_count = read::int32_at(status, "retryCount", at);
  // Kept as text (it is only copied and written back), but checked as Go's decoder would.
  if (read::duration_at(status, "runningDuration", at)) {
    out.running_duration = read::string_at(status, "runningDuration", at);
  }
  out.controlled_resources = read::string_map_at(status, "controlledResources", at);
  read_conditions(status, at, out);
  return out;
}

void decode_job(const json& job, Job& out, TemplateMode templates, const FieldPath& root) {
  read::object(job, root);
  decode_object_meta(job, root, out);
  if (const json* meta = read::object_at(job, "metadata", root); meta != nullptr) {
    out.owner_references = owner_refs_at(*meta, "ownerReferences", root.key("metadata"));
  }
  if (const json* spec = read::object_at(job, "spec", root); spec != nullptr) {
    out.spec = decode_job_spec(*spec, root.key("spec"), templates);
  }
  if (const json* status = read::object_at(job, "status", root); status != nullptr) {
    out.status = decode_job_status(*status, root.key("status"));
  }
}

const api::OwnerRef* Job::controller_ref() const {
  for (const api::OwnerRef& r : owner_references) {
    if (r.is_controller()) return &r;
  }
  return nullptr;
}

json encode_job_status(const JobStatus& s) {
  json out = json::object();
  json state = json::object();
  write::nonempty(state, "phase", s.phase);
  write::nonempty(state, "reason", s.reason);
  write::nonempty(state, "message", s.message);
  state["lastTransitionTime"] = write::time_or_null(s.last_transition_time);
  out["state"] = std::move(state);
  write::nonzero(out, "minAvailable", s.min_available);
  if (!s.task_status_count.empty()) {
    out["taskStatusCount"] = encode_task_status_count(s.task_status_count);
  }
  write::nonzero(out, "pending", s.pending);
  write::nonzero(out, "running", s.running);
  write::nonzero(out, "succeeded", s.succeeded);
  write::nonzero(out, "failed", s.failed);
  write::nonzero(out, "terminating", s.terminating);
  write::nonzero(out, "unknown", s.unknown);
  write::nonzero(out, "version", s.version);
  write::nonzero(out, "retryCount", s.retry_count);
  if (s.running_duration) out["runningDuration"] = *s.running_duration;
  if (!s.controlled_resources.empty()) out["controlledResources"] = s.controlled_resources;
  write::list(out, "conditions", s.conditions, [](const JobCondition& c) {
    json cond = {{"status", c.status}};
    write::time_if_set(cond, "lastTransitionTime", c.last_transition_time);
    return cond;
  });
  return out;
}

json job_status_update_body(const Job& job, const JobStatus& status) {
  json meta = {{"name", job.name}, {"namespace", job.namespace_}};
  if (!job.uid.empty()) meta["uid"] = job.uid;
  if (!job.resource_version.empty()) meta["resourceVersion"] = job.resource_version;
  return json{{"apiVersion", kJobApiVersion},
              {"kind", kJobKind},
              {"metadata", std::move(meta)},
              {"status", encode_job_status(status)}};
}

}  // namespace vc::volcano
