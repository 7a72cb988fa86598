#pragma once
// The options vc-webhook-manager and vc-controller-manager both take with the same names,
// defaults and checks (spec webhook.md §4.1, spec controller-manager.md §1.2), and the parse
// both run.
// Each binary's options struct derives from BaseOptions and adds its own flags:
//
//   struct WebhookOptions : flags::BaseOptions { int port = 8443; ... };
//   using ParsedCommandLine = flags::ParsedCommandLine<WebhookOptions>;
//   auto parsed = flags::parse_command_line<WebhookOptions>(
//       "vc-webhook-manager", args, [](flags::FlagSet& fs, WebhookOptions& o) {
//         flags::add_base_flags(fs, o, help);   // the shared flags
//         fs.int_var("port", &o.port, "...");   // the binary's own
//       });
//
// Where Volcano words a shared flag's help differently in its two binaries, each binary passes
// its own text (BaseFlagHelp), so --help stays Volcano's.
//
// Thread-safety: none; used at start-up only.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/api/expected.h"
#include "common/flags/feature_gates.h"
#include "common/flags/flag_set.h"
#include "common/flags/klog_flags.h"

namespace vc::flags {

// The values of --kube-api-content-type.
inline constexpr std::string_view kJsonContentType = "application/json";
inline constexpr std::string_view kProtobufContentType = "application/vnd.kubernetes.protobuf";

struct BaseOptions {
  // The known gates differ per binary; the flag and its parsing do not.
  explicit BaseOptions(std::vector<FeatureSpec> known_gates)
      : feature_gates(std::move(known_gates)) {}

  std::string master;
  std::string kubeconfig;
  double kube_api_qps = 50;  // float32 in Volcano
  int kube_api_burst = 100;
  std::string ca_cert_file;
  std::string tls_cert_file;
  std::string tls_private_key_file;
  bool version = false;
  bool enable_healthz = false;
  std::string healthz_address = ":11251";
  FeatureGates feature_gates;
  KlogOptions klog;
  // Ours.
  std::string log_format = "text";  // text | json
  // application/json (Volcano's) | application/vnd.kubernetes.protobuf (built-in objects only;
  // docs/kube-protobuf.md says why it is not the default)
  std::string kube_api_content_type = "application/json";
};

// The help texts of the shared flags that Volcano's two binaries word differently.
struct BaseFlagHelp {
  std::string ca_cert_file;  // what the CA is used for
  std::string version;
  std::string enable_healthz;
  std::string healthz_address;
  std::string feature_gates;
};

// --master, --kubeconfig, --kube-api-qps, --kube-api-burst, --ca-cert-file, --tls-cert-file,
// --tls-private-key-file, --version, --enable-healthz, --healthz-address, --feature-gates,
// klog's flags, --log-format and --kube-api-content-type.
void add_base_flags(FlagSet& fs, BaseOptions& o, BaseFlagHelp help);

// The checks of the shared flags, appended to errors: --log-format other than text/json, a
// negative --kube-api-burst, a --kube-api-content-type other than JSON or protobuf.
void validate_base(const BaseOptions& o, std::vector<std::string>& errors);

// What parsing found besides the options.
struct CommandLine {
  std::vector<std::string> args;      // positional arguments (Helm passes "2>&1"), ignored
  std::vector<std::string> warnings;  // deprecated flags used
  // Every flag as "FLAG: --name=\"value\"", sorted by name, as Volcano logs them at V(1).
  std::vector<std::string> flag_lines;
  bool help = false;
  std::string usage;  // the --help text
};

template <class Options>
struct ParsedCommandLine : CommandLine {
  Options options;
};

// Parses args with fs, whose flags write into the options being parsed, and reports the rest.
// The error is pflag's text, e.g. "unknown flag: --x".
api::Expected<CommandLine> parse_flags(FlagSet& fs, const std::vector<std::string>& args);

// A binary's parse: add_flags(fs, options) registers its flags (add_base_flags among them).
template <class Options, class AddFlags>
api::Expected<ParsedCommandLine<Options>> parse_command_line(std::string program,
                                                             const std::vector<std::string>& args,
                                                             AddFlags add_flags) {
  ParsedCommandLine<Options> out;
  FlagSet fs(std::move(program));
  add_flags(fs, out.options);
  auto parsed = parse_flags(fs, args);
  if (!parsed) return api::Unexpected{parsed.error()};
  static_cast<CommandLine&>(out) = std::move(*parsed);
  return out;
}

}  // namespace vc::flags
