// webhook_main: from argv to run() (see run.h).

#include <algorithm>
#include <cstdio>
#include <exception>

#include "common/flags/klog_flags.h"
#include "common/flags/version.h"
#include "common/log/log.h"
#include "common/process/signals.h"
#include "webhook/app/run.h"

namespace vc::webhook::app {

int webhook_main(int argc, char** argv) {
  // Before any thread exists, so that every thread inherits the blocked signals.
  process::SignalHandler signals;

  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  auto parsed = parse_command_line(args);
  if (!parsed) {
    // pflag prints the error and the usage and exits 2; the usage is one --help away here.
    std::fprintf(stderr, "%s\nRun 'vc-webhook-manager --help' for the list of flags.\n",
                 parsed.error().c_str());
    return 2;
  }
  if (parsed->help) {
    std::fputs(parsed->usage.c_str(), stdout);
    return 0;
  }
  const WebhookOptions& o = parsed->options;
  if (o.version) {
    std::fputs(flags::version_text().c_str(), stdout);
    return 0;
  }
  try {
    log::setup({.format = log::parse_format(o.log_format), .verbosity = std::max(o.klog.v, 0)});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  for (const auto& w : parsed->warnings) VC_LOG_WARN(w);
  for (const auto& line : parsed->flag_lines) VC_LOG_V(1, line);
  for (const auto& note : flags::ignored_settings(o.klog)) VC_LOG_WARN(note);
  return run(o, signals.stop_token());
}

}  // namespace vc::webhook::app
