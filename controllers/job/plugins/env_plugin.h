#pragma once
// env plugin (spec job-controller.md §5.1): every container and init container gets
// VK_TASK_INDEX and VC_TASK_INDEX = the pod's index (last "-" segment of its name). No arguments,
// no objects; only the "plugin-env" mark.
//
// Threads: see plugin.h.

#include <string>
#include <vector>

#include "controllers/job/plugins/plugin.h"

namespace vc::controllers::job::plugins {

class EnvPlugin : public Plugin {
 public:
  static constexpr const char* kName = "env";
  explicit EnvPlugin(const std::vector<std::string>& args);

  std::string name() const override { return kName; }
  api::Status on_pod_create(nlohmann::json& pod, const Job& job) override;
  api::Status on_job_add(PluginEnv& env) override;
  api::Status on_job_delete(PluginEnv& env) override;
  api::Status on_job_update(PluginEnv& env) override;
};

}  // namespace vc::controllers::job::plugins
