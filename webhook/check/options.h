#pragma once
// The command line of `vc-webhook-manager check`. The admission flags mirror the webhook's
// (spec webhook.md §4.1) so a check runs the rules with the settings of the deployed webhook.
//
// Threads: parse_check_args is a pure function of its arguments (writes help and errors to the
// given streams).

#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "webhook/admission/options.h"

namespace vc::webhook::check {

enum class OutputFormat { Yaml, Json, None };

struct CheckOptions {
  std::vector<std::string> filenames;         // -f/--filename: files, directories, "-"
  std::string kubeconfig;                     // --kubeconfig
  std::string master;                         // --master
  std::string default_namespace = "default";  // -n/--namespace: for objects without one
  std::string admission_conf;                 // --admission-conf: enables /pods/mutate
  OutputFormat output = OutputFormat::Yaml;   // -o/--output
  // --scheduler-name, --max-queue-depth, --enable-root-queue-protection, --feature-gates;
  // pod_admission_config is loaded from admission_conf by run_check.
  AdmissionOptions admission;
  int verbosity = 0;  // -v

  bool online() const { return !kubeconfig.empty() || !master.empty(); }
};

// argv[0] is "check". Returns the options, or the exit code to stop with: 0 after --help (the
// help went to out), 2 after a usage error (the message went to err).
std::variant<CheckOptions, int> parse_check_args(int argc, char** argv, std::ostream& out,
                                                 std::ostream& err);

}  // namespace vc::webhook::check
