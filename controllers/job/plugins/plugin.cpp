#include "controllers/job/plugins/plugin.h"

#include "controllers/job/plugins/env_plugin.h"
#include "controllers/job/plugins/hcclrank_plugin.h"
#include "controllers/job/plugins/mpi_plugin.h"
#include "controllers/job/plugins/plugin_support.h"
#include "controllers/job/plugins/pytorch_plugin.h"
#include "controllers/job/plugins/ray_plugin.h"
#include "controllers/job/plugins/ssh_plugin.h"
#include "controllers/job/plugins/svc_plugin.h"
#include "controllers/job/plugins/tensorflow_plugin.h"

namespace vc::controllers::job::plugins {

api::Status MarkOnlyPlugin::on_job_add(PluginEnv& env) {
  set_mark(env, name());
  return api::ok_status();
}

api::Status MarkOnlyPlugin::on_job_delete(PluginEnv& env) {
  if (is_marked(env, name())) clear_mark(env, name());
  return api::ok_status();
}

std::unique_ptr<Plugin> make_plugin(const std::string& name, const std::vector<std::string>& args) {
  if (name == EnvPlugin::kName) return std::make_unique<EnvPlugin>(args);
  if (name == SvcPlugin::kName) return std::make_unique<SvcPlugin>(args);
  if (name == SshPlugin::kName) return std::make_unique<SshPlugin>(args);
  if (name == RayPlugin::kName) return std::make_unique<RayPlugin>(args);
  if (name == PytorchPlugin::kName) return std::make_unique<PytorchPlugin>(args);
  if (name == TensorflowPlugin::kName) return std::make_unique<TensorflowPlugin>(args);
  if (name == MpiPlugin::kName) return std::make_unique<MpiPlugin>(args);
  if (name == HcclRankPlugin::kName) return std::make_unique<HcclRankPlugin>(args);
  return nullptr;
}

api::Expected<std::vector<std::unique_ptr<Plugin>>> make_plugins(const JobSpec& spec) {
  std::vector<std::unique_ptr<Plugin>> plugins;
  plugins.reserve(spec.plugins.size());
  for (const auto& [name, args] : spec.plugins) {
    auto plugin = make_plugin(name, args);
    if (!plugin) return api::Unexpected{"failed to get plugin " + name};
    plugins.push_back(std::move(plugin));
  }
  return plugins;
}

}  // namespace vc::controllers::job::plugins
