#pragma once
// pytorch plugin (spec job-controller.md §5.4): torch.distributed rendezvous for master/worker
// tasks. Every container gets port "pytorchjob-port" (unless the number is open already) and
// MASTER_ADDR, MASTER_PORT, WORLD_SIZE and RANK (0 for the master, index+1 for workers); with
// --wait-master-enabled, worker pods get a "wait-for-master" init container polling the master.
// A job without the master task is left unchanged. Only the "plugin-pytorch" mark otherwise.
// Arguments: --master (master), --worker (worker), --port (23456), --wait-master-enabled
// (false), --wait-master-timeout (300), --wait-master-image (busybox:1.36.1).
//
// Threads: see plugin.h.

#include <cstdint>
#include <string>
#include <vector>

#include "controllers/job/plugins/plugin.h"

namespace vc::controllers::job::plugins {

class PytorchPlugin : public MarkOnlyPlugin {
 public:
  static constexpr const char* kName = "pytorch";
  explicit PytorchPlugin(const std::vector<std::string>& args);

  api::Status on_pod_create(nlohmann::json& pod, const Job& job) override;

  // The init container's shell script (exact text of Volcano's, no trailing newline).
  std::string wait_for_master_script(const std::string& master_addr) const;

 private:
  std::string master_ = "master";
  std::string worker_ = "worker";
  std::int64_t port_ = 23456;
  bool wait_master_enabled_ = false;
  std::int64_t wait_master_timeout_ = 300;
  std::string wait_master_image_ = "busybox:1.36.1";
};

}  // namespace vc::controllers::job::plugins
