#pragma once
// ray plugin (spec job-controller.md §5.7): the head task's head container opens ports gcs,
// dashboard and client-server and runs `ray start --head ...`; the worker task's worker container
// runs `ray start --block --address=<head host>:<port>`. A job without the head task fails pod
// creation. OnJobAdd creates the ClusterIP Service "<job>-head-svc" for the head's three ports;
// OnJobDelete removes it.
// Arguments: --head (head), --headContainer (head), --worker (worker), --workerContainer
// (worker), --port (6379), --dashboardPort (8265), --clientPort (10001).
//
// Threads: see plugin.h.

#include <cstdint>
#include <string>
#include <vector>

#include "controllers/job/plugins/plugin.h"

namespace vc::controllers::job::plugins {

class RayPlugin : public Plugin {
 public:
  static constexpr const char* kName = "ray";
  explicit RayPlugin(const std::vector<std::string>& args);

  api::Status on_pod_create(nlohmann::json& pod, const Job& job) override;
  api::Status on_job_add(PluginEnv& env) override;
  api::Status on_job_delete(PluginEnv& env) override;

 private:
  std::string head_ = "head";
  std::string head_container_ = "head";
  std::string worker_ = "worker";
  std::string worker_container_ = "worker";
  std::int64_t port_ = 6379;
  std::int64_t dashboard_port_ = 8265;
  std::int64_t client_port_ = 10001;
};

// "<job>-head-svc".
std::string ray_head_service_name(const Job& job);

}  // namespace vc::controllers::job::plugins
