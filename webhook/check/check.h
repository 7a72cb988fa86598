#pragma once
// `vc-webhook-manager check -f FILE...`: runs the webhook's mutate and validate rules on local
// YAML/JSON manifests, so platform teams can gate manifests in CI (user guide: docs/check.md;
// output format and exit codes: report.h; reading: manifest_reader.h; routing: routing.h).

namespace vc::webhook::check {

// Entry point of the `check` subcommand. argv[0] is "check"; returns the process exit code.
// Reads std::cin for "-f -", writes admitted objects to std::cout and results to std::cerr.
int check_main(int argc, char** argv);

}  // namespace vc::webhook::check
