#include "webhook/admission/jobs/job_view.h"

#include "webhook/admission/jobs/schema.h"

namespace vc::webhook::jobs {

api::Expected<const json*> checked_object(const json& object, const go::GoType& type,
                                          bool nesting_bounded) {
  static const json kEmptyObject = json::object();
  if (object.is_null()) return &kEmptyObject;
  // Go's decoder gives up beyond 10000 levels; refusing early also keeps every recursive
  // walk below (comparison, serialisation) within a small stack.
  if (!nesting_bounded && go::json_depth(object) > go::kMaxJsonDepth) {
    return api::Unexpected{"exceeded max depth"};
  }
  if (auto err = go::check_go_types(object, type)) return api::Unexpected{*err};
  if (!object.is_object()) return &kEmptyObject;
  return &object;
}

const json& null_json() {
  static const json kNull;
  return kNull;
}

const json& child_at(const json& obj, const char* key) {
  if (!obj.is_object()) return null_json();
  // As a string_view: a const char* key would be strlen()ed at every comparison of the search.
  auto it = obj.find(std::string_view(key));
  return it == obj.end() ? null_json() : *it;
}

std::string str_at(const json& obj, const char* key) {
  const json& v = child_at(obj, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

std::int64_t int_at(const json& obj, const char* key) {
  const json& v = child_at(obj, key);
  if (v.is_number_integer()) return v.get<std::int64_t>();
  return 0;
}

bool bool_at(const json& obj, const char* key) {
  const json& v = child_at(obj, key);
  return v.is_boolean() && v.get<bool>();
}

std::vector<std::string> strings_at(const json& obj, const char* key) {
  std::vector<std::string> out;
  const json& v = child_at(obj, key);
  if (!v.is_array()) return out;
  for (const auto& e : v) out.push_back(e.is_string() ? e.get<std::string>() : std::string());
  return out;
}

namespace {

std::optional<std::int32_t> opt_int32(const json& obj, const char* key) {
  const json& v = child_at(obj, key);
  if (!v.is_number_integer()) return std::nullopt;
  return static_cast<std::int32_t>(v.get<std::int64_t>());
}

std::int32_t int32_at(const json& obj, const char* key) {
  return static_cast<std::int32_t>(int_at(obj, key));
}

std::optional<NetworkTopology> topology_at(const json& obj, const char* key) {
  const json& v = child_at(obj, key);
  if (!v.is_object()) return std::nullopt;
  NetworkTopology t;
  t.mode = str_at(v, "mode");
  const json& tier = child_at(v, "highestTierAllowed");
  if (tier.is_number_integer()) t.highest_tier_allowed = tier.get<std::int64_t>();
  t.highest_tier_name = str_at(v, "highestTierName");
  return t;
}

std::vector<LifecyclePolicy> policies_at(const json& obj, const char* key) {
  std::vector<LifecyclePolicy> out;
  const json& v = child_at(obj, key);
  if (!v.is_array()) return out;
  for (const auto& p : v) {
    LifecyclePolicy policy;
    policy.action = str_at(p, "action");
    policy.event = str_at(p, "event");
    policy.events = strings_at(p, "events");
    policy.exit_code = opt_int32(p, "exitCode");
    out.push_back(std::move(policy));
  }
  return out;
}

TaskSpec task_from(const json& t) {
  TaskSpec task;
  task.name = str_at(t, "name");
  task.replicas = int32_at(t, "replicas");
  task.min_available = opt_int32(t, "minAvailable");
  task.template_ = &child_at(t, "template");
  task.policies = policies_at(t, "policies");
  task.topology_policy = str_at(t, "topologyPolicy");
  task.max_retry = int32_at(t, "maxRetry");
  const json& deps = child_at(t, "dependsOn");
  if (deps.is_object()) {
    task.has_depends_on = true;
    task.depends_on = strings_at(deps, "name");
  }
  const json& pp = child_at(t, "partitionPolicy");
  if (pp.is_object()) {
    PartitionPolicy p;
    p.total_partitions = int32_at(pp, "totalPartitions");
    p.partition_size = int32_at(pp, "partitionSize");
    p.network_topology = topology_at(pp, "networkTopology");
    p.min_partitions = int32_at(pp, "minPartitions");
    task.partition_policy = p;
  }
  return task;
}

}  // namespace

api::Expected<Job> decode_job(const json& object, bool nesting_bounded) {
  auto checked = checked_object(object, schema::job(), nesting_bounded);
  if (!checked) return api::Unexpected{checked.error()};
  const json& obj = **checked;
  Job job;
  const json& meta = child_at(obj, "metadata");
  job.name = str_at(meta, "name");
  job.namespace_ = str_at(meta, "namespace");
  const json& spec = child_at(obj, "spec");
  JobSpec& s = job.spec;
  s.scheduler_name = str_at(spec, "schedulerName");
  s.min_available = int32_at(spec, "minAvailable");
  const json& volumes = child_at(spec, "volumes");
  if (volumes.is_array()) {
    for (const auto& v : volumes) {
      VolumeSpec vol;
      vol.mount_path = str_at(v, "mountPath");
      vol.volume_claim_name = str_at(v, "volumeClaimName");
      vol.has_volume_claim = child_at(v, "volumeClaim").is_object();
      s.volumes.push_back(std::move(vol));
    }
  }
  const json& tasks = child_at(spec, "tasks");
  if (tasks.is_array()) {
    for (const auto& t : tasks) s.tasks.push_back(task_from(t));
  }
  s.policies = policies_at(spec, "policies");
  const json& plugins = child_at(spec, "plugins");
  if (plugins.is_object()) {
    s.plugins.emplace();
    for (const auto& [name, args] : plugins.items()) {
      auto& list = (*s.plugins)[name];
      if (args.is_array()) {
        for (const auto& a : args) list.push_back(a.is_string() ? a.get<std::string>() : "");
      }
    }
  }
  s.queue = str_at(spec, "queue");
  s.max_retry = int32_at(spec, "maxRetry");
  s.priority_class_name = str_at(spec, "priorityClassName");
  s.network_topology = topology_at(spec, "networkTopology");
  return job;
}

}  // namespace vc::webhook::jobs
