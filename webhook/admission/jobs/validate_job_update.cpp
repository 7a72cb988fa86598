#include "webhook/admission/jobs/validate_job_update.h"

#include <cstdint>

#include "common/volcano/go_types.h"
#include "webhook/admission/jobs/job_checks.h"
#include "webhook/admission/jobs/semantic.h"

namespace vc::webhook::jobs {

using nlohmann::json;

namespace {

// Sets dst[key] to src[key], or removes it when src has none.
void copy_field(json& dst, const json& src, const char* key) {
  if (!dst.is_object()) return;
  if (src.is_object() && src.contains(key)) {
    dst[key] = src[key];
  } else {
    dst.erase(key);
  }
}

// The controller fills volumeClaimName in for volumes created from a claim template.
void drop_generated_claim_names(json& spec) {
  if (!spec.contains("volumes") || !spec["volumes"].is_array()) return;
  for (auto& v : spec["volumes"]) {
    if (v.is_object() && child_at(v, "volumeClaim").is_object()) v.erase("volumeClaimName");
  }
}

json spec_of(const json& object) {
  json spec = child_at(object, "spec");
  return spec.is_object() ? spec : json::object();
}

}  // namespace

std::string validate_job_update(const Job& new_job, const Job& old_job, const json& new_object,
                                const json& old_object) {
  std::int64_t total = 0;
  for (const auto& task : new_job.spec.tasks) {
    if (task.replicas < 0) return "'replicas' must be >= 0 in task: " + task.name;
    if (task.min_available) {
      if (*task.min_available < 0) return "'minAvailable' must be >= 0 in task: " + task.name;
      if (*task.min_available > task.replicas) {
        return "'minAvailable' must be <= 'replicas' in task: " + task.name;
      }
    }
    if (auto msg = validate_partition_policy(task, new_job.name); !msg.empty()) return msg;
    total = static_cast<std::int32_t>(total + task.replicas);
  }
  if (new_job.spec.min_available > total) {
    return "job 'minAvailable' must not be greater than total replicas";
  }
  if (new_job.spec.min_available < 0) return "job 'minAvailable' must be >= 0";
  if (new_job.spec.network_topology && topology_conflicts(*new_job.spec.network_topology)) {
    return kTopologyConflict;
  }
  if (new_job.spec.tasks.size() != old_job.spec.tasks.size()) {
    return "job updates may not add or remove tasks";
  }

  json new_spec = spec_of(new_object);
  json old_spec = spec_of(old_object);
  copy_field(new_spec, old_spec, "minAvailable");
  copy_field(new_spec, old_spec, "priorityClassName");
  const json& old_tasks = child_at(old_spec, "tasks");
  if (new_spec.contains("tasks") && new_spec["tasks"].is_array() && old_tasks.is_array()) {
    json& tasks = new_spec["tasks"];
    for (std::size_t i = 0; i < tasks.size() && i < old_tasks.size(); ++i) {
      if (!tasks[i].is_object()) tasks[i] = json::object();
      copy_field(tasks[i], old_tasks[i], "replicas");
      copy_field(tasks[i], old_tasks[i], "minAvailable");
    }
  }
  drop_generated_claim_names(new_spec);
  drop_generated_claim_names(old_spec);
  if (!semantic_equal(new_spec, old_spec, volcano::go_types::job_spec())) {
    return "job updates may not change fields other than `minAvailable`, `tasks[*].replicas under "
           "spec` and `PriorityClassName`";
  }
  return {};
}

}  // namespace vc::webhook::jobs
