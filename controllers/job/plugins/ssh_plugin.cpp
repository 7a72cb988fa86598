#include "controllers/job/plugins/ssh_plugin.h"

#include "common/kube/resource.h"
#include "common/log/log.h"
#include "controllers/job/plugins/plugin_support.h"
#include "controllers/job/plugins/ssh_keys.h"

namespace vc::controllers::job::plugins {

using nlohmann::json;

namespace {

constexpr const char* kPrivateKey = "id_rsa";
constexpr const char* kPublicKey = "id_rsa.pub";
constexpr const char* kAuthorizedKeys = "authorized_keys";
constexpr const char* kConfig = "config";
constexpr const char* kRelativePath = ".ssh";
constexpr int kRootMode = 0600;
constexpr int kNonRootMode = 0644;

api::Unexpected wrap_secret_error(const Job& job, const std::string& error) {
  return {"create secret for job <" + job.key() + "> with ssh plugin failed for " + error};
}

}  // namespace

std::string ssh_secret_name(const Job& job) {
  return job.name + "-" + SshPlugin::kName;
}

std::string ssh_config(const Job& job, std::int64_t port) {
  std::string config = "StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\n";
  for (const TaskSpec& task : job.spec.tasks) {
    for (std::int32_t i = 0; i < task.replicas; ++i) {
      const std::string host = task.template_hostname.empty() ? pod_name_for(job.name, task.name, i)
                                                              : task.template_hostname;
      config += "Host " + host + "\n";
      config += "  HostName " + domain_name(job, task, i) + "\n";
      config += "  Port " + std::to_string(port) + "\n";
      if (!task.template_hostname.empty()) break;
    }
  }
  return config;
}

SshPlugin::SshPlugin(const std::vector<std::string>& args) : Plugin(kName) {
  GoFlagSet flags;
  flags.add_string("ssh-key-file-path", &key_file_path_);
  flags.add_string("ssh-private-key", &private_key_);
  flags.add_string("ssh-public-key", &public_key_);
  flags.add_int("ssh-port", &port_);
  parse_args(flags, kName, args);
}

api::Status SshPlugin::on_pod_create(json& pod, const Job& job) {
  const std::string secret = ssh_secret_name(job);
  json items = json::array();
  for (const char* key : {kPrivateKey, kPublicKey, kAuthorizedKeys, kConfig}) {
    items.push_back({{"key", key}, {"path", std::string(kRelativePath) + "/" + key}});
  }
  const int mode = key_file_path_ == kDefaultKeyPath ? kRootMode : kNonRootMode;
  append_volume(pod,
                {{"name", secret},
                 {"secret", {{"secretName", secret}, {"items", items}, {"defaultMode", mode}}}});
  const json mount = {{"name", secret}, {"mountPath", key_file_path_}, {"subPath", kRelativePath}};
  for_each_container(pod, Containers::Both, [&](json& c) { append_to(c, "volumeMounts", mount); });
  return api::ok_status();
}

api::Status SshPlugin::on_job_add(PluginEnv& env) {
  if (port_ <= 0 || port_ > 65535) {
    VC_LOG_WARN("invalid ssh port, falling back to 22", kv("job", env.job.key()),
                kv("port", port_));
    port_ = 22;
  }
  if (is_marked(env, kName)) return api::ok_status();

  const std::string config = base64_encode(ssh_config(env.job, port_));
  const std::string name = ssh_secret_name(env.job);
  auto existing = env.client.get(kube::resources::secrets, env.job.namespace_, name);
  if (!existing.ok() && !existing.is(kube::ErrorKind::NotFound)) {
    return wrap_secret_error(env.job, error_text(existing.error()));
  }
  // Only the config decides whether an existing Secret is rewritten: this runs on every sync
  // while the job is Pending and must not replace the keys the pods already use.
  if (existing.ok()) {
    const json& data = existing->value("data", json::object());
    if (data.is_object() && data.contains(kConfig) && data[kConfig] == config) {
      set_mark(env, kName);
      return api::ok_status();
    }
  }
  // Keys are made only when they will be written (Volcano makes a pair on every pass).
  std::string private_key = private_key_;
  std::string public_key = public_key_;
  if (private_key.empty()) {
    auto generated = generate_ssh_key_pair(2048);
    if (!generated.ok()) return api::Unexpected{generated.error()};
    private_key = std::move(generated->private_pem);
    public_key = std::move(generated->authorized_key);
  }
  const json data = {{kPrivateKey, base64_encode(private_key)},
                     {kPublicKey, base64_encode(public_key)},
                     {kAuthorizedKeys, base64_encode(public_key)},
                     {kConfig, config}};
  if (existing.ok()) {
    json updated = std::move(existing.value());
    updated["data"] = data;
    auto written = env.client.update(kube::resources::secrets, env.job.namespace_, updated);
    if (!written.ok()) return wrap_secret_error(env.job, error_text(written.error()));
  } else {
    json secret = owned_object(env.job, kube::resources::secrets, name);
    secret["type"] = "Opaque";
    secret["data"] = data;
    auto created = env.client.create(kube::resources::secrets, env.job.namespace_, secret);
    if (!created.ok() && !created.is(kube::ErrorKind::AlreadyExists)) {
      return wrap_secret_error(env.job, error_text(created.error()));
    }
  }
  set_mark(env, kName);
  return api::ok_status();
}

api::Status SshPlugin::on_job_delete(PluginEnv& env) {
  if (!is_marked(env, kName)) return api::ok_status();
  if (auto removed = delete_if_present(env, kube::resources::secrets, ssh_secret_name(env.job));
      !removed) {
    return removed;
  }
  clear_mark(env, kName);
  return api::ok_status();
}

}  // namespace vc::controllers::job::plugins
