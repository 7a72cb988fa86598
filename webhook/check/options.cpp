#include "webhook/check/options.h"

#include <map>
#include <optional>
#include <string_view>

#include <CLI/CLI.hpp>

#include "common/api/expected.h"
#include "webhook/check/report.h"

namespace vc::webhook::check {
namespace {

// Go's strconv.ParseBool, as pflag reads feature-gate values.
std::optional<bool> parse_go_bool(std::string_view v) {
  for (std::string_view t : {"1", "t", "T", "TRUE", "true", "True"}) {
    if (v == t) return true;
  }
  for (std::string_view f : {"0", "f", "F", "FALSE", "false", "False"}) {
    if (v == f) return false;
  }
  return std::nullopt;
}

// --feature-gates "A=true,B=false": the webhook's value can be copied as it is. Admission reads
// two gates; the others are accepted and have no effect here.
api::Status apply_feature_gates(std::string_view text, AdmissionOptions& options) {
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      return api::Unexpected{"missing bool value for " + std::string(item)};
    const std::string_view key = item.substr(0, eq);
    auto value = parse_go_bool(item.substr(eq + 1));
    if (!value) return api::Unexpected{"invalid value of " + std::string(item)};
    if (key == "SchedulingGatesQueueAdmission") options.scheduling_gates_queue_admission = *value;
    if (key == "PodLevelResources") options.pod_level_resources = *value;
  }
  return api::ok_status();
}

}  // namespace

std::variant<CheckOptions, int> parse_check_args(int argc, char** argv, std::ostream& out,
                                                 std::ostream& err) {
  CheckOptions o;
  std::string output = "yaml";
  CLI::App app{
      "Runs the Volcano admission rules (mutate, then validate) on local manifests, as the API "
      "server would on create.\nExit status: 0 all admitted, 1 something denied, 2 usage or "
      "read errors.",
      "vc-webhook-manager check"};
  app.add_option("-f,--filename", o.filenames,
                 "Manifest file, directory of *.yaml/*.yml/*.json, or - for stdin (repeatable)")
      ->required()
      ->delimiter(',');
  app.add_option("--kubeconfig", o.kubeconfig,
                 "Kubeconfig for queue and namespace lookups; without it (or --master) they are "
                 "skipped");
  app.add_option("--master", o.master, "API server address; overrides the kubeconfig's");
  app.add_option("-n,--namespace", o.default_namespace,
                 "Namespace for objects that do not set metadata.namespace")
      ->capture_default_str();
  app.add_option("--scheduler-name", o.admission.scheduler_names,
                 "Scheduler names the webhook handles; the first is the default for jobs "
                 "(repeatable)")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--admission-conf", o.admission_conf,
                 "Pod admission configuration (resource groups); enables /pods/mutate");
  app.add_option("-o,--output", output, "Print the admitted objects as yaml, json or none")
      ->check(CLI::IsMember({"yaml", "json", "none"}))
      ->capture_default_str();
  app.add_option("--max-queue-depth", o.admission.max_queue_depth,
                 "Maximum depth of the queue hierarchy")
      ->capture_default_str();
  app.add_flag("--enable-root-queue-protection", o.admission.enable_root_queue_protection,
               "Protect the root queue's resources (use =false to turn off)")
      ->capture_default_str();
  std::string feature_gates;
  app.add_option("--feature-gates", feature_gates,
                 "Feature gates as the webhook takes them (key=value,...); admission reads "
                 "SchedulingGatesQueueAdmission (default false) and PodLevelResources (default "
                 "true)");
  app.add_option("-v,--v", o.verbosity, "Log verbosity (logs go to stderr)")
      ->check(CLI::NonNegativeNumber);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e, out, err);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (auto gates = apply_feature_gates(feature_gates, o.admission); !gates) {
    err << "error: --feature-gates: " << gates.error() << "\n";
    return kExitUsage;
  }
  static const std::map<std::string, OutputFormat> kFormats{
      {"yaml", OutputFormat::Yaml}, {"json", OutputFormat::Json}, {"none", OutputFormat::None}};
  o.output = kFormats.at(output);
  return o;
}

}  // namespace vc::webhook::check
