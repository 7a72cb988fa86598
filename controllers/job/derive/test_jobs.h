#pragma once
// Job fixtures shared by the derive tests (test code only; no .cpp, so nothing is linked into
// the library).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "controllers/job/model/job.h"

namespace vc::controllers::job::testing {

// A template whose single container requests `cpu` (no resources when empty).
inline nlohmann::json cpu_template(const std::string& cpu) {
  nlohmann::json container = {{"name", "main"}, {"image", "busybox"}};
  if (!cpu.empty()) container["resources"] = {{"requests", {{"cpu", cpu}}}};
  return {{"spec", {{"containers", nlohmann::json::array({container})}}}};
}

inline TaskSpec make_task(std::string name, std::int32_t replicas, const std::string& cpu = "",
                          std::optional<std::int32_t> min_available = std::nullopt) {
  TaskSpec t;
  t.name = std::move(name);
  t.replicas = replicas;
  t.min_available = min_available;
  t.pod_template = PodTemplate::from_json(cpu_template(cpu));
  return t;
}

inline TaskSpec with_template(TaskSpec t, const nlohmann::json& template_json) {
  t.pod_template = PodTemplate::from_json(template_json);
  if (auto spec = template_json.find("spec"); spec != template_json.end()) {
    t.template_priority_class_name = spec->value("priorityClassName", "");
    t.template_hostname = spec->value("hostname", "");
    t.template_subdomain = spec->value("subdomain", "");
  }
  return t;
}

inline Job make_job(std::string name = "job1", std::string ns = "ns1",
                    std::string uid = "0a1b2c3d-uid") {
  Job job;
  job.name = std::move(name);
  job.namespace_ = std::move(ns);
  job.uid = std::move(uid);
  job.resource_version = "7";
  job.spec.queue = "default";
  job.spec.scheduler_name = "volcano";
  return job;
}

}  // namespace vc::controllers::job::testing
