#include "webhook/check/options.h"

#include <map>

#include <CLI/CLI.hpp>

#include "common/api/expected.h"
#include "common/flags/feature_gates.h"
#include "webhook/app/options.h"
#include "webhook/check/report.h"

namespace vc::webhook::check {
namespace {

// --feature-gates as the webhook parses it (common/flags/feature_gates.h), with the webhook's
// gates, so the webhook's value can be copied as it is; repeated flags merge. Admission reads two
// gates; the webhook's others (Volcano's, AllAlpha, AllBeta, Kubernetes') are accepted and have
// no effect here, and a name the webhook does not know is an error, as it is there.
api::Status apply_feature_gates(const std::vector<std::string>& values, AdmissionOptions& options) {
  flags::FeatureGates gates(app::WebhookOptions::default_feature_gates());
  for (const std::string& value : values) {
    if (auto set = gates.set(value); !set) return set;
  }
  options.scheduling_gates_queue_admission = gates.enabled(app::kSchedulingGatesQueueAdmission);
  options.pod_level_resources = gates.enabled(app::kPodLevelResources);
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
  std::vector<std::string> feature_gates;
  app.add_option("--feature-gates", feature_gates,
                 "Feature gates as the webhook takes them (key=value,...; repeatable); admission "
                 "reads SchedulingGatesQueueAdmission (default false) and PodLevelResources "
                 "(default true)")
      ->allow_extra_args(false);  // one value per flag, as for the webhook
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
