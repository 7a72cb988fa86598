#include "controllers/job/plugins/svc_plugin.h"

#include <algorithm>

#include "common/kube/resource.h"
#include "controllers/job/plugins/plugin_support.h"

namespace vc::controllers::job::plugins {

using nlohmann::json;

namespace {

constexpr const char* kMountPath = "/etc/volcano";

// Task name with "-" replaced by "_" (ConfigMap keys keep the case; env names upper-case it).
std::string env_key(const std::string& task) {
  std::string key = task;
  std::replace(key.begin(), key.end(), '-', '_');
  return key;
}

std::string upper(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

std::string hosts_env(const std::string& task) {
  return "VC_" + upper(env_key(task)) + "_HOSTS";
}
std::string num_env(const std::string& task) {
  return "VC_" + upper(env_key(task)) + "_NUM";
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

json job_pod_labels(const Job& job) {
  return {{keys::kJobName, job.name}, {keys::kJobNamespace, job.namespace_}};
}

}  // namespace

std::string svc_config_map_name(const Job& job) {
  return job.name + "-" + SvcPlugin::kName;
}

std::map<std::string, std::string> svc_hosts_data(const Job& job) {
  std::map<std::string, std::string> data;
  for (const TaskSpec& task : job.spec.tasks) {
    const std::vector<std::string> hosts = task_hosts(job, task);
    data[env_key(task.name) + ".host"] = join(hosts, "\n");
    data[hosts_env(task.name)] = join(hosts, ",");
    data[num_env(task.name)] = std::to_string(hosts.size());
  }
  return data;
}

SvcPlugin::SvcPlugin(const std::vector<std::string>& args) : Plugin(kName) {
  GoFlagSet flags;
  flags.add_bool("publish-not-ready-addresses", &publish_not_ready_addresses_);
  flags.add_bool("disable-network-policy", &disable_network_policy_);
  parse_args(flags, kName, args);
}

api::Status SvcPlugin::on_pod_create(json& pod, const Job& job) {
  json& spec = pod["spec"];
  if (!spec.is_object()) spec = json::object();
  if (!spec.contains("hostname") || spec["hostname"] == "") spec["hostname"] = pod_name(pod);
  if (!spec.contains("subdomain") || spec["subdomain"] == "") spec["subdomain"] = job.name;

  const std::string cm = svc_config_map_name(job);
  json env = json::array();
  for (const TaskSpec& task : job.spec.tasks) {
    for (const std::string& key : {hosts_env(task.name), num_env(task.name)}) {
      env.push_back(
          {{"name", key}, {"valueFrom", {{"configMapKeyRef", {{"name", cm}, {"key", key}}}}}});
    }
  }
  const json mount = {{"name", cm}, {"mountPath", kMountPath}};
  for_each_container(pod, Containers::Both, [&](json& c) {
    for (const json& e : env) append_to(c, "env", e);
    append_to(c, "volumeMounts", mount);
  });
  append_volume(pod, {{"name", cm}, {"configMap", {{"name", cm}}}});
  return api::ok_status();
}

api::Status SvcPlugin::ensure_config_map(PluginEnv& env) const {
  json data = svc_hosts_data(env.job);
  json object = owned_object(env.job, kube::resources::configmaps, svc_config_map_name(env.job));
  object["data"] = data;
  return create_or_update(env, kube::resources::configmaps, object, [&](json& existing) {
    const auto current = existing.find("data");
    if (current != existing.end() && *current == data) return false;
    existing["data"] = data;
    return true;
  });
}

api::Status SvcPlugin::on_job_add(PluginEnv& env) {
  if (is_marked(env, kName)) return api::ok_status();
  if (auto ensured = ensure_config_map(env); !ensured) return ensured;

  json service = owned_object(env.job, kube::resources::services, env.job.name);
  service["spec"] = {{"clusterIP", "None"}, {"selector", job_pod_labels(env.job)}};
  if (publish_not_ready_addresses_) service["spec"]["publishNotReadyAddresses"] = true;
  const auto svc = create_if_absent(env, kube::resources::services, service);
  if (!svc) return api::Unexpected{svc.error()};
  // Volcano marks as soon as it has created something, even if a later step fails.
  if (*svc == Outcome::Created) set_mark(env, kName);

  if (!disable_network_policy_) {
    json policy = owned_object(env.job, kube::resources::networkpolicies, env.job.name);
    const json selector = {{"matchLabels", job_pod_labels(env.job)}};
    const json peer = {{"podSelector", selector}};
    const json rule = {{"from", json::array({peer})}};
    policy["spec"] = {{"podSelector", selector},
                      {"ingress", json::array({rule})},
                      {"policyTypes", json::array({"Ingress"})}};
    const auto np = create_if_absent(env, kube::resources::networkpolicies, policy);
    if (!np) return api::Unexpected{np.error()};
  }
  set_mark(env, kName);
  return api::ok_status();
}

api::Status SvcPlugin::on_job_delete(PluginEnv& env) {
  if (!is_marked(env, kName)) return api::ok_status();
  if (auto removed =
          delete_if_present(env, kube::resources::configmaps, svc_config_map_name(env.job));
      !removed) {
    return removed;
  }
  if (auto removed = delete_if_present(env, kube::resources::services, env.job.name); !removed) {
    return removed;
  }
  clear_mark(env, kName);
  if (!disable_network_policy_) {
    return delete_if_present(env, kube::resources::networkpolicies, env.job.name);
  }
  return api::ok_status();
}

api::Status SvcPlugin::on_job_update(PluginEnv& env) {
  return ensure_config_map(env);
}

}  // namespace vc::controllers::job::plugins
