#pragma once
// The flags vc-webhook-manager and vc-controller-manager both take with the same meaning
// (spec webhook.md §4.1, spec controller-manager.md §1.2): API-server connection and TLS file
// paths. Each binary keeps the values in its own options struct; these register them with one help
// text.

#include <string>

#include "common/flags/flag_set.h"

namespace vc::flags {

// --master, --kubeconfig, --kube-api-qps, --kube-api-burst.
void add_api_client_flags(FlagSet& fs, std::string& master, std::string& kubeconfig, double& qps,
                          int& burst);
// --ca-cert-file, --tls-cert-file, --tls-private-key-file; ca_help says what the CA is used for.
void add_tls_file_flags(FlagSet& fs, std::string& ca_cert_file, std::string& tls_cert_file,
                        std::string& tls_private_key_file, std::string ca_help);

}  // namespace vc::flags
