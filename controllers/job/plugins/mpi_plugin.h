#pragma once
// mpi plugin (spec job-controller.md §5.6): every container and init container gets port
// "mpijob-port" (unless the number is open already); master-task pods also get MPI_HOST = the
// worker hosts, comma-joined. A master pod of a job without the worker task is left unchanged.
// Only the "plugin-mpi" mark otherwise.
// Arguments: --master (master), --worker (worker), --port (22).
//
// Threads: see plugin.h.

#include <cstdint>
#include <string>
#include <vector>

#include "controllers/job/plugins/plugin.h"

namespace vc::controllers::job::plugins {

class MpiPlugin : public MarkOnlyPlugin {
 public:
  static constexpr const char* kName = "mpi";
  explicit MpiPlugin(const std::vector<std::string>& args);

  api::Status on_pod_create(nlohmann::json& pod, const Job& job) override;

 private:
  std::string master_ = "master";
  std::string worker_ = "worker";
  std::int64_t port_ = 22;
};

}  // namespace vc::controllers::job::plugins
