#include "controllers/job/derive/pod.h"

#include <random>
#include <set>
#include <stdexcept>
#include <string_view>

#include "common/api/owner_ref.h"
#include "common/random/random.h"

namespace vc::controllers::job {

namespace {

using nlohmann::json;

// The task-spec value for a task without a name (Volcano's DefaultTaskSpec).
constexpr const char* kDefaultTaskSpec = "default";

const std::string* job_annotation(const Job& job, std::string_view key) {
  for (const auto& [k, v] : job.annotations) {
    if (k == key) return &v;
  }
  return nullptr;
}

const std::string* job_label(const Job& job, std::string_view key) {
  for (const auto& [k, v] : job.labels) {
    if (k == key) return &v;
  }
  return nullptr;
}

// template[key] as an object: absent or null is empty, another type is a malformed template.
json object_field(const json& holder, const char* key, const char* path) {
  auto it = holder.find(key);
  if (it == holder.end() || it->is_null()) return json::object();
  if (!it->is_object()) throw std::invalid_argument(std::string(path) + ": must be an object");
  return *it;
}

// A string field that Go would read as "" when absent.
bool has_nonempty_string(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() && !it->get_ref<const std::string&>().empty();
}

// Volumes for the job's claims, deduplicated by claim name (later duplicates are skipped
// entirely, mount included), each mounted in every regular container.
void add_job_volumes(const Job& job, json& spec, const RandomName& rand12) {
  if (job.spec.volumes.empty()) return;
  json& containers = spec["containers"];
  if (containers.is_null()) containers = json::array();
  if (!containers.is_array()) {
    throw std::invalid_argument("template.spec.containers: must be an array");
  }
  std::set<std::string> seen;
  for (const VolumeSpec& volume : job.spec.volumes) {
    if (!seen.insert(volume.volume_claim_name).second) continue;
    const std::string name = job.name + "-" + rand12();
    json& volumes = spec["volumes"];
    if (!volumes.is_array()) volumes = json::array();
    volumes.push_back(
        {{"name", name}, {"persistentVolumeClaim", {{"claimName", volume.volume_claim_name}}}});
    for (json& c : containers) {
      if (!c.is_object()) {
        throw std::invalid_argument("template.spec.containers: entries must be objects");
      }
      json& mounts = c["volumeMounts"];
      if (!mounts.is_array()) mounts = json::array();
      mounts.push_back({{"name", name}, {"mountPath", volume.mount_path}});
    }
  }
}

}  // namespace

std::string random_name12() {
  static constexpr std::string_view kAlphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
  std::string out(12, '0');
  for (char& c : out) c = kAlphabet[pick(random::thread_rng())];
  return out;
}

json build_pod(const Job& job, const TaskSpec& task, std::int32_t index, const json& template_json,
               const RandomName& rand12) {
  const json metadata_in = object_field(template_json, "metadata", "template.metadata");
  json labels = object_field(metadata_in, "labels", "template.metadata.labels");
  json annotations = object_field(metadata_in, "annotations", "template.metadata.annotations");
  json spec = object_field(template_json, "spec", "template.spec");

  if (!has_nonempty_string(spec, "schedulerName")) {
    if (job.spec.scheduler_name.empty()) {
      spec.erase("schedulerName");
    } else {
      spec["schedulerName"] = job.spec.scheduler_name;
    }
  }
  if (!has_nonempty_string(spec, "priorityClassName")) {
    if (job.spec.priority_class_name.empty()) {
      spec.erase("priorityClassName");
    } else {
      spec["priorityClassName"] = job.spec.priority_class_name;
    }
  }
  add_job_volumes(job, spec, rand12);

  const std::string task_spec = task.name.empty() ? kDefaultTaskSpec : task.name;
  const std::string index_text = std::to_string(index);

  annotations[keys::kTaskIndex] = index_text;
  annotations[keys::kTaskSpec] = task_spec;
  // Always the new-style name, even when only a legacy PodGroup exists
  // (spec job-controller.md §8.22).
  annotations[keys::kGroupName] = job.name + "-" + job.uid;
  annotations[keys::kJobName] = job.name;
  annotations[keys::kQueueName] = job.spec.queue;
  annotations[keys::kJobVersion] = std::to_string(job.status.version);
  annotations[keys::kTemplateUid] = job.name + "-" + task.name;
  annotations[keys::kJobRetryCount] = std::to_string(job.status.retry_count);
  if (!task.topology_policy.empty()) annotations[keys::kNumaPolicy] = task.topology_policy;
  for (const char* key : {keys::kPreemptable, keys::kCooldownTime, keys::kRevocableZone}) {
    if (const std::string* v = job_annotation(job, key)) annotations[key] = *v;
  }
  if (const std::string* v = job_annotation(job, keys::kJdbMinAvailable)) {
    annotations[keys::kJdbMinAvailable] = *v;
  } else if (const std::string* w = job_annotation(job, keys::kJdbMaxUnavailable)) {
    annotations[keys::kJdbMaxUnavailable] = *w;
  }

  labels[keys::kTaskIndex] = index_text;
  labels[keys::kJobName] = job.name;
  labels[keys::kTaskSpec] = task_spec;
  labels[keys::kJobNamespace] = job.namespace_;
  labels[keys::kQueueName] = job.spec.queue;
  for (const char* key : {keys::kPreemptable, keys::kCooldownTime}) {
    if (const std::string* v = job_label(job, key)) labels[key] = *v;
  }

  if (const std::string* fwd = job_annotation(job, keys::kJobForwarding); fwd && *fwd == "true") {
    annotations[keys::kJobForwarding] = "true";
    labels[keys::kJobForwarding] = "true";
  }

  if (task.partition_policy) {
    const std::int32_t size = task.partition_policy->partition_size;
    labels[keys::kPartitionId] = std::to_string(size <= 0 ? 0 : index / size);
  }

  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata",
           {{"name", job.name + "-" + task.name + "-" + index_text},
            {"namespace", job.namespace_},
            {"ownerReferences",
             json::array({api::make_controller_ref(kJobApiVersion, kJobKind, job.name, job.uid)})},
            {"labels", std::move(labels)},
            {"annotations", std::move(annotations)}}},
          {"spec", std::move(spec)}};
}

}  // namespace vc::controllers::job
