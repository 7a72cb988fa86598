#include "common/flags/shared_flags.h"

#include <utility>

namespace vc::flags {

void add_api_client_flags(FlagSet& fs, std::string& master, std::string& kubeconfig, double& qps,
                          int& burst) {
  fs.string_var("master", &master,
                "URL of the Kubernetes API server; overrides the server in --kubeconfig.");
  fs.string_var("kubeconfig", &kubeconfig,
                "Path to a kubeconfig file. Without it and --master the in-cluster service "
                "account is used.");
  fs.float32_var("kube-api-qps", &qps, "Requests per second to the Kubernetes API server.");
  fs.int_var("kube-api-burst", &burst, "Requests allowed in a burst above --kube-api-qps.");
}

void add_tls_file_flags(FlagSet& fs, std::string& ca_cert_file, std::string& tls_cert_file,
                        std::string& tls_private_key_file, std::string ca_help) {
  fs.string_var("ca-cert-file", &ca_cert_file, std::move(ca_help));
  fs.string_var("tls-cert-file", &tls_cert_file,
                "PEM certificate served over HTTPS; CA certificates may follow the server's.");
  fs.string_var("tls-private-key-file", &tls_private_key_file,
                "PEM private key of --tls-cert-file.");
}

}  // namespace vc::flags
