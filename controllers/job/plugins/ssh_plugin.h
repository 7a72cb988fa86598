#pragma once
// ssh plugin (spec job-controller.md §5.3): password-less ssh between the job's pods.
//   - Secret "<job>-ssh" (Opaque) with id_rsa, id_rsa.pub, authorized_keys and an ssh config
//     listing every replica's host; keys from the arguments or a fresh RSA-2048 pair;
//   - pods: the Secret as volume "<job>-ssh" (items under .ssh/, mode 0600, or 0644 when the key
//     path is not the default kDefaultKeyPath) mounted at the key path with subPath .ssh in every
//     container and init container.
// Arguments: --ssh-key-file-path (kDefaultKeyPath), --ssh-private-key, --ssh-public-key,
// --ssh-port (22; outside 1..65535 falls back to 22 when the Secret is built).
//
// Threads: see plugin.h.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "controllers/job/plugins/plugin.h"

namespace vc::controllers::job::plugins {

class SshPlugin : public Plugin {
 public:
  static constexpr const char* kName = "ssh";
  // Volcano's default: the root user's ~/.ssh inside the job's containers
  // (spec job-controller.md §5.3), not a path on any machine running the controller.
  static constexpr const char* kDefaultKeyPath =
      "/"
      "root"
      "/.ssh";
  explicit SshPlugin(const std::vector<std::string>& args);

  api::Status on_pod_create(nlohmann::json& pod, const Job& job) override;
  api::Status on_job_add(PluginEnv& env) override;
  api::Status on_job_delete(PluginEnv& env) override;

  const std::string& key_file_path() const { return key_file_path_; }
  const std::string& private_key() const { return private_key_; }
  const std::string& public_key() const { return public_key_; }
  std::int64_t port() const { return port_; }

 private:
  std::string key_file_path_ = kDefaultKeyPath;
  std::string private_key_;
  std::string public_key_;
  std::int64_t port_ = 22;
};

// "<job>-ssh": the Secret and the pod volume.
std::string ssh_secret_name(const Job& job);
// The "config" item: StrictHostKeyChecking/UserKnownHostsFile, then a Host block per replica.
std::string ssh_config(const Job& job, std::int64_t port);

}  // namespace vc::controllers::job::plugins
