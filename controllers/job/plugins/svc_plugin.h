#pragma once
// svc plugin (spec job-controller.md §5.2): makes the job's pods find each other by name.
//   - ConfigMap "<job>-svc" with, per task (K = task name with "-" -> "_"): "<K>.host" (hosts,
//     one per line), "VC_<UPPER K>_HOSTS" (comma-joined) and "VC_<UPPER K>_NUM";
//   - headless Service "<job>" selecting the job's pods;
//   - NetworkPolicy "<job>" admitting ingress from the job's own pods (unless disabled);
//   - pods: hostname/subdomain defaulted, VC_*_HOSTS/NUM env from the ConfigMap, and the
//     ConfigMap mounted at /etc/volcano.
// Arguments: --publish-not-ready-addresses (bool), --disable-network-policy (bool).
//
// Threads: see plugin.h.

#include <map>
#include <string>
#include <vector>

#include "controllers/job/plugins/plugin.h"

namespace vc::controllers::job::plugins {

class SvcPlugin : public Plugin {
 public:
  static constexpr const char* kName = "svc";
  explicit SvcPlugin(const std::vector<std::string>& args);

  api::Status on_pod_create(nlohmann::json& pod, const Job& job) override;
  api::Status on_job_add(PluginEnv& env) override;
  api::Status on_job_delete(PluginEnv& env) override;
  api::Status on_job_update(PluginEnv& env) override;

  bool publish_not_ready_addresses() const { return publish_not_ready_addresses_; }
  bool disable_network_policy() const { return disable_network_policy_; }

 private:
  api::Status ensure_config_map(PluginEnv& env) const;

  bool publish_not_ready_addresses_ = false;
  bool disable_network_policy_ = false;
};

// "<job>-svc": the ConfigMap and the pod volume.
std::string svc_config_map_name(const Job& job);
// The ConfigMap data for the job's tasks.
std::map<std::string, std::string> svc_hosts_data(const Job& job);

}  // namespace vc::controllers::job::plugins
