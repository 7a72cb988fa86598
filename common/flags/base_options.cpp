#include "common/flags/base_options.h"

#include "common/go/strconv.h"

namespace vc::flags {

void add_base_flags(FlagSet& fs, BaseOptions& o, BaseFlagHelp help) {
  fs.string_var("master", &o.master,
                "URL of the Kubernetes API server; overrides the server in --kubeconfig.");
  fs.string_var("kubeconfig", &o.kubeconfig,
                "Path to a kubeconfig file. Without it and --master the in-cluster service "
                "account is used.");
  fs.float32_var("kube-api-qps", &o.kube_api_qps,
                 "Requests per second to the Kubernetes API server.");
  fs.int_var("kube-api-burst", &o.kube_api_burst,
             "Requests allowed in a burst above --kube-api-qps.");
  fs.string_var("ca-cert-file", &o.ca_cert_file, std::move(help.ca_cert_file));
  fs.string_var("tls-cert-file", &o.tls_cert_file,
                "PEM certificate served over HTTPS; CA certificates may follow the server's.");
  fs.string_var("tls-private-key-file", &o.tls_private_key_file,
                "PEM private key of --tls-cert-file.");
  fs.bool_var("version", &o.version, std::move(help.version));
  fs.bool_var("enable-healthz", &o.enable_healthz, std::move(help.enable_healthz));
  fs.string_var("healthz-address", &o.healthz_address, std::move(help.healthz_address));
  fs.var("feature-gates", o.feature_gates.flag_value(), std::move(help.feature_gates));
  add_klog_flags(fs, o.klog);
  fs.string_var("log-format", &o.log_format, "Log line format: text or json.");
  fs.string_var("kube-api-content-type", &o.kube_api_content_type,
                "Content type of requests for built-in objects (pods, events, leases, nodes): "
                "application/json or application/vnd.kubernetes.protobuf. Custom resources are "
                "always JSON.");
}

void validate_base(const BaseOptions& o, std::vector<std::string>& errors) {
  if (o.log_format != "text" && o.log_format != "json") {
    errors.push_back("invalid --log-format " + go::quote(o.log_format) +
                     ": want \"text\" or \"json\"");
  }
  if (o.kube_api_burst < 0) errors.emplace_back("invalid --kube-api-burst: must not be negative");
  if (o.kube_api_content_type != kJsonContentType &&
      o.kube_api_content_type != kProtobufContentType) {
    errors.push_back("invalid --kube-api-content-type " + go::quote(o.kube_api_content_type) +
                     ": want \"" + std::string(kJsonContentType) + "\" or \"" +
                     std::string(kProtobufContentType) + "\"");
  }
}

api::Expected<CommandLine> parse_flags(FlagSet& fs, const std::vector<std::string>& args) {
  auto parsed = fs.parse(args);
  if (!parsed) return api::Unexpected{parsed.error()};
  CommandLine out;
  out.args = std::move(parsed->args);
  out.warnings = std::move(parsed->warnings);
  out.help = parsed->help;
  out.usage = fs.usage();
  for (const auto& [name, value] : fs.values()) {
    out.flag_lines.push_back("FLAG: --" + name + "=" + go::quote(value));
  }
  return out;
}

}  // namespace vc::flags
