#include "controllers/job/plugins/env_plugin.h"

#include "controllers/job/plugins/plugin_support.h"

namespace vc::controllers::job::plugins {

namespace {
constexpr const char* kVkTaskIndex = "VK_TASK_INDEX";
constexpr const char* kVcTaskIndex = "VC_TASK_INDEX";
}  // namespace

// env takes no arguments; Volcano ignores whatever is given, and so do we.
EnvPlugin::EnvPlugin(const std::vector<std::string>& /*args*/) : MarkOnlyPlugin(kName) {}

api::Status EnvPlugin::on_pod_create(nlohmann::json& pod, const Job& /*job*/) {
  const std::string index = pod_index_suffix(pod);
  for_each_container(pod, Containers::Both, [&](nlohmann::json& c) {
    append_to(c, "env", env_var(kVkTaskIndex, index));
    append_to(c, "env", env_var(kVcTaskIndex, index));
  });
  return api::ok_status();
}

}  // namespace vc::controllers::job::plugins
