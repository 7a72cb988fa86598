#include "controllers/job/model/spec_json.h"

#include "common/go/duration.h"
#include "controllers/job/model/json_fields.h"

namespace vc::controllers::job {

using nlohmann::json;

namespace {

// Calls read(element, element_path) for each element of the array at key; a null element
// reads as {} (Go decodes it as the zero value).
template <class Read>
void each_at(const json& object, std::string_view key, const std::string& path, Read read) {
  const json* list = fields::array_at(object, key, path);
  if (list == nullptr) return;
  const std::string p = fields::child(path, key);
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string ip = fields::item(p, i);
    const json& e = (*list)[i];
    static const json kEmpty = json::object();
    read(e.is_null() ? kEmpty : fields::require_object(e, ip), ip);
  }
}

std::optional<NetworkTopology> network_topology_at(const json& object, const std::string& path) {
  const json* nt = fields::object_at(object, "networkTopology", path);
  if (nt == nullptr) return std::nullopt;
  const std::string p = fields::child(path, "networkTopology");
  NetworkTopology out;
  out.mode = fields::string_at(*nt, "mode", p);
  // Go's type is `*int` (64-bit); the model holds int32, so larger values are rejected here.
  out.highest_tier_allowed = fields::opt_int32_at(*nt, "highestTierAllowed", p);
  out.highest_tier_name = fields::string_at(*nt, "highestTierName", p);
  return out;
}

LifecyclePolicy policy_from_json(const json& p, const std::string& path) {
  LifecyclePolicy out;
  out.action = fields::string_at(p, "action", path);
  out.events = fields::strings_at(p, "events", path);
  if (std::string event = fields::string_at(p, "event", path); !event.empty()) {
    out.events.push_back(std::move(event));
  }
  out.exit_code = fields::opt_int32_at(p, "exitCode", path);
  if (const json* t = fields::find(p, "timeout"); t != nullptr) {
    const std::string tp = fields::child(path, "timeout");
    auto d = go::parse_duration(fields::string_value(*t, tp));
    if (!d) fields::fail(tp, d.error());
    out.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(*d);
  }
  return out;
}

std::vector<LifecyclePolicy> policies_at(const json& object, const std::string& path) {
  std::vector<LifecyclePolicy> out;
  each_at(object, "policies", path,
          [&](const json& p, const std::string& pp) { out.push_back(policy_from_json(p, pp)); });
  return out;
}

std::optional<PartitionPolicy> partition_policy_at(const json& task, const std::string& path) {
  const json* pp = fields::object_at(task, "partitionPolicy", path);
  if (pp == nullptr) return std::nullopt;
  const std::string p = fields::child(path, "partitionPolicy");
  PartitionPolicy out;
  out.total_partitions = fields::int32_at(*pp, "totalPartitions", p);
  out.partition_size = fields::int32_at(*pp, "partitionSize", p);
  out.min_partitions = fields::int32_at(*pp, "minPartitions", p);
  out.network_topology = network_topology_at(*pp, p);
  return out;
}

void read_template(const json& task, const std::string& path, TaskSpec& out) {
  const json* tmpl = fields::object_at(task, "template", path);
  if (tmpl == nullptr) return;
  const std::string p = fields::child(path, "template");
  if (const json* spec = fields::object_at(*tmpl, "spec", p); spec != nullptr) {
    const std::string sp = fields::child(p, "spec");
    out.template_priority_class_name = fields::string_at(*spec, "priorityClassName", sp);
    out.template_hostname = fields::string_at(*spec, "hostname", sp);
    out.template_subdomain = fields::string_at(*spec, "subdomain", sp);
  }
  out.pod_template = PodTemplate::from_json(*tmpl);
}

TaskSpec task_from_json(const json& t, const std::string& path) {
  TaskSpec out;
  out.name = fields::string_at(t, "name", path);
  out.replicas = fields::int32_at(t, "replicas", path);
  out.min_available = fields::opt_int32_at(t, "minAvailable", path);
  out.max_retry = fields::int32_at(t, "maxRetry", path);
  out.policies = policies_at(t, path);
  if (const json* d = fields::object_at(t, "dependsOn", path); d != nullptr) {
    const std::string dp = fields::child(path, "dependsOn");
    out.depends_on =
        DependsOn{fields::strings_at(*d, "name", dp), fields::string_at(*d, "iteration", dp)};
  }
  out.topology_policy = fields::string_at(t, "topologyPolicy", path);
  out.partition_policy = partition_policy_at(t, path);
  read_template(t, path, out);
  return out;
}

VolumeSpec volume_from_json(const json& v, const std::string& path) {
  VolumeSpec out;
  out.mount_path = fields::string_at(v, "mountPath", path);
  out.volume_claim_name = fields::string_at(v, "volumeClaimName", path);
  if (const json* claim = fields::object_at(v, "volumeClaim", path); claim != nullptr) {
    out.volume_claim_text = claim->dump();
  }
  return out;
}

std::vector<std::pair<std::string, std::vector<std::string>>> plugins_at(const json& spec,
                                                                         const std::string& path) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  const json* plugins = fields::object_at(spec, "plugins", path);
  if (plugins == nullptr) return out;
  const std::string p = fields::child(path, "plugins");
  // nlohmann::json objects iterate in key order, so the list comes out sorted by name.
  for (const auto& [name, args] : plugins->items()) {
    std::vector<std::string> values;
    if (!args.is_null()) {
      const std::string ap = fields::child(p, name);
      fields::require_array(args, ap);
      values.reserve(args.size());
      for (std::size_t i = 0; i < args.size(); ++i) {
        values.push_back(args[i].is_null() ? std::string()
                                           : fields::string_value(args[i], fields::item(ap, i)));
      }
    }
    out.emplace_back(name, std::move(values));
  }
  return out;
}

}  // namespace

JobSpec spec_from_json(const json& spec, const std::string& path) {
  JobSpec out;
  if (spec.is_null()) return out;
  fields::require_object(spec, path);
  out.scheduler_name = fields::string_at(spec, "schedulerName", path);
  out.min_available = fields::int32_at(spec, "minAvailable", path);
  out.min_success = fields::opt_int32_at(spec, "minSuccess", path);
  each_at(spec, "volumes", path, [&](const json& v, const std::string& vp) {
    out.volumes.push_back(volume_from_json(v, vp));
  });
  each_at(spec, "tasks", path, [&](const json& t, const std::string& tp) {
    out.tasks.push_back(task_from_json(t, tp));
  });
  out.policies = policies_at(spec, path);
  out.plugins = plugins_at(spec, path);
  out.queue = fields::string_at(spec, "queue", path);
  out.max_retry = fields::int32_at(spec, "maxRetry", path);
  out.ttl_seconds_after_finished = fields::opt_int32_at(spec, "ttlSecondsAfterFinished", path);
  out.priority_class_name = fields::string_at(spec, "priorityClassName", path);
  out.network_topology = network_topology_at(spec, path);
  return out;
}

}  // namespace vc::controllers::job
