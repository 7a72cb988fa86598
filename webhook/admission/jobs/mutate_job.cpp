#include "webhook/admission/jobs/mutate_job.h"

#include <cstdint>
#include <string>

#include "common/json/release.h"
#include "webhook/admission/request_checks.h"

namespace vc::webhook::jobs {
namespace {

constexpr std::int32_t kDefaultMaxRetry = 3;

// Built member by member: nlohmann's initializer-list form first builds a two-element array per
// member and checks its shape, which cost more than the rest of the patch's construction.
json op(const char* verb, const char* path, json value) {
  json out(json::value_t::object);
  auto& members = out.get_ref<json::object_t&>();
  members.emplace("op", verb);
  members.emplace("path", path);
  members.emplace("value", std::move(value));
  return out;
}

// Go's int32 arithmetic wraps; C++20 defines the conversion modulo 2^32.
std::int32_t wrap32(std::int64_t v) {
  return static_cast<std::int32_t>(v);
}

// Applies the task defaults to the task's JSON; returns the task's minAvailable afterwards and
// sets `changed` when anything was added.
std::int32_t default_task(json& task, const TaskSpec& view, std::size_t index, bool& changed) {
  if (!task.is_object()) task = json::object();  // a null element decodes to a zero TaskSpec
  if (view.name.empty()) {
    task["name"] = "default" + std::to_string(index);
    changed = true;
  }
  const json& spec = child_at(child_at(task, "template"), "spec");
  if (bool_at(spec, "hostNetwork") && str_at(spec, "dnsPolicy").empty()) {
    task["template"]["spec"]["dnsPolicy"] = "ClusterFirstWithHostNet";
    changed = true;
  }
  std::int32_t min_available = view.min_available.value_or(0);
  if (!view.min_available) {
    const auto& pp = view.partition_policy;
    if (pp && pp->min_partitions > 0) {
      min_available = wrap32(std::int64_t{pp->min_partitions} * pp->partition_size);
    } else {
      min_available = view.replicas;
    }
    task["minAvailable"] = min_available;
    changed = true;
  }
  if (view.max_retry == 0) {
    task["maxRetry"] = kDefaultMaxRetry;
    changed = true;
  }
  return min_available;
}

json plugins_with_implied(const json& plugins) {
  json out = plugins;
  const bool needs_svc = out.contains("tensorflow") || out.contains("mpi") ||
                         out.contains("pytorch") || out.contains("ray");
  if (needs_svc && !out.contains("svc")) out["svc"] = json::array();
  if (out.contains("mpi") && !out.contains("ssh")) out["ssh"] = json::array();
  return out;
}

}  // namespace

json job_default_patch(const json& job_object, json tasks, const Job& job,
                       const AdmissionOptions& options) {
  json patch = json::array();
  const JobSpec& spec = job.spec;
  if (spec.queue.empty()) patch.push_back(op("add", "/spec/queue", "default"));
  if (spec.scheduler_name.empty()) {
    patch.push_back(op("add", "/spec/schedulerName", options.default_scheduler_name()));
  }
  if (spec.max_retry == 0) patch.push_back(op("add", "/spec/maxRetry", kDefaultMaxRetry));

  const json& spec_json = child_at(job_object, "spec");
  std::int64_t total_min_available = 0;
  if (tasks.is_array() && !tasks.empty()) {
    bool changed = false;
    for (std::size_t i = 0; i < spec.tasks.size() && i < tasks.size(); ++i) {
      total_min_available += default_task(tasks[i], spec.tasks[i], i, changed);
    }
    if (changed) patch.push_back(op("replace", "/spec/tasks", std::move(tasks)));
  }
  fastjson::release(tasks);  // what the patch did not take (release.h)
  if (spec.min_available == 0) {
    patch.push_back(op("add", "/spec/minAvailable", wrap32(total_min_available)));
  }
  const json& plugins = child_at(spec_json, "plugins");
  if (plugins.is_object()) {
    patch.push_back(op("replace", "/spec/plugins", plugins_with_implied(plugins)));
  }
  return patch;
}

namespace {

// Both entry points: take_tasks() gives spec.tasks (a copy, or the member moved out), called
// once the request has passed the checks.
template <class TakeTasks>
AdmissionResponse mutate(const AdmissionRequest& request, const AdmissionOptions& options,
                         TakeTasks take_tasks) {
  if (auto err = expect_resource(request, kJobsResource)) return AdmissionResponse::deny(*err);
  auto job = decode_job(request.object, request.nesting_bounded);
  if (!job) return AdmissionResponse::deny(job.error());
  if (request.operation != "CREATE") {
    return AdmissionResponse::deny("expect operation to be 'CREATE' ");
  }
  json patch = job_default_patch(request.object, take_tasks(), *job, options);
  if (patch.empty()) return AdmissionResponse::allow();
  return AdmissionResponse::mutate(std::move(patch));
}

}  // namespace

AdmissionResponse admit_jobs_mutate(const AdmissionRequest& request, const ClusterView&,
                                    const AdmissionOptions& options) {
  return mutate(request, options,
                [&] { return json(child_at(child_at(request.object, "spec"), "tasks")); });
}

AdmissionResponse admit_jobs_mutate_consuming(AdmissionRequest& request, const ClusterView&,
                                              const AdmissionOptions& options) {
  return mutate(request, options, [&] {
    // Moving a JSON array hands over its element storage: the task views decode_job made keep
    // pointing at the same elements.
    json tasks;
    if (auto spec = request.object.find("spec"); spec != request.object.end()) {
      if (auto t = spec->find("tasks"); t != spec->end()) tasks = std::move(*t);
    }
    return tasks;
  });
}

}  // namespace vc::webhook::jobs
