#pragma once
// Config: where the API server is and how to authenticate, from a kubeconfig file, $KUBECONFIG,
// --kubeconfig/--master, or the in-cluster service account. Loading errors are start-up
// configuration mistakes and throw ConfigError with a message naming the file and field.

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

namespace vc::kube {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Supplies the bearer token. A token read from a file is re-read when the file changes (the
// kubelet rotates projected service-account tokens), checked at most once a minute.
class TokenSource {
 public:
  static std::shared_ptr<TokenSource> from_string(std::string token);
  static std::shared_ptr<TokenSource> from_file(std::string path);
  virtual ~TokenSource() = default;
  virtual std::string token() = 0;  // thread-safe
};

struct Config {
  std::string server;  // "https://127.0.0.1:6443" (http:// allowed for tests)
  std::string ca_pem;  // PEM of the cluster CA; empty = system roots
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;  // SNI/verification name override; empty = host of server
  std::string client_cert_pem;
  std::string client_key_pem;
  std::shared_ptr<TokenSource> token;  // null = no bearer token
  std::string namespace_;              // the context's namespace, or the in-cluster namespace file

  // Resolution order as in client-go: explicit kubeconfig path, else $KUBECONFIG (first file),
  // else in-cluster, else ~/.kube/config. A non-empty master overrides the server URL. A
  // non-empty context is used instead of the kubeconfig's current-context (as kubectl
  // --context); it needs a kubeconfig file, so it never falls back to in-cluster credentials.
  static Config load(const std::string& kubeconfig_path, const std::string& master,
                     const std::string& context = {});
  static Config from_kubeconfig_file(const std::string& path, const std::string& context = {});
  static Config from_kubeconfig_yaml(const std::string& yaml, const std::string& base_dir,
                                     const std::string& context = {});
  // KUBERNETES_SERVICE_HOST/PORT and /var/run/secrets/kubernetes.io/serviceaccount/{token,ca.crt,
  // namespace}; root overrides that directory for tests.
  static Config in_cluster(
      const std::string& root = "/var/run/secrets/kubernetes.io/serviceaccount");
};

}  // namespace vc::kube
