#pragma once
// run_main: the start-up both binaries share, from argv to their run function. Signals are
// blocked before any thread exists (signals.h); flags are parsed (exit 2 with pflag's error and a
// hint); --help prints the usage to stdout and --version the version lines (exit 0); logging is
// set up from -v and --log-format (exit 1 on a bad format); warnings and every flag are logged;
// then run(options, stop_token) gives the exit code.
//
// parse returns the binary's flags::ParsedCommandLine, whose options derive from
// flags::BaseOptions (common/flags/base_options.h). Call it from main() only.

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "common/flags/klog_flags.h"
#include "common/flags/version.h"
#include "common/log/log.h"
#include "common/process/signals.h"

namespace vc::process {

template <class ParseFn, class RunFn>
int run_main(const char* binary, int argc, char** argv, ParseFn parse, RunFn run) {
  // Before any thread exists, so that every thread inherits the blocked signals.
  SignalHandler signals;

  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  auto parsed = parse(args);
  if (!parsed) {
    // pflag prints the error and the usage and exits 2; the usage is one --help away here.
    std::fprintf(stderr, "%s\nRun '%s --help' for the list of flags.\n", parsed.error().c_str(),
                 binary);
    return 2;
  }
  if (parsed->help) {
    std::fputs(parsed->usage.c_str(), stdout);
    return 0;
  }
  const auto& o = parsed->options;
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

}  // namespace vc::process
