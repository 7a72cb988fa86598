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

class EnvPlugin : public MarkOnlyPlugin {
 public:
  static constexpr const char* kName = "env";
  explicit EnvPlugin(const std::vector<std::string>& args);

  api::Status on_pod_create(nlohmann::json& pod, const Job& job) override;
};

}  // namespace vc::controllers::job::plugins
