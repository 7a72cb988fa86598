#pragma once
// The klog flags Volcano's binaries accept (klog.InitFlags plus --log-flush-frequency), with
// klog's parsing and the presets of Volcano's main(): stderrthreshold INFO and
// legacy_stderr_threshold_behavior false. Only -v changes what we do (vc::log verbosity); we
// always log to stderr, so the file options are accepted for compatibility and reported by
// ignored_settings().
//
// Thread-safety: none; used at start-up only.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "common/flags/flag_set.h"

namespace vc::flags {

struct KlogOptions {
  int v = 0;            // -v / --v: klog.Level (int32, decimal)
  std::string vmodule;  // "pattern=N,..."
  bool logtostderr = true;
  bool alsologtostderr = false;
  std::string log_dir;
  std::string log_file;
  std::uint64_t log_file_max_size = 1800;  // MB
  std::string stderrthreshold = "INFO";    // severity name or number; Volcano presets INFO
  bool skip_headers = false;
  bool skip_log_headers = false;
  bool add_dir_header = false;
  bool one_output = false;
  std::string log_backtrace_at = ":0";            // "file.go:N"
  bool legacy_stderr_threshold_behavior = false;  // Volcano presets false
  std::chrono::nanoseconds log_flush_frequency = std::chrono::seconds(5);
};

// Registers the klog flags (names with dashes; underscores are accepted by normalisation).
void add_klog_flags(FlagSet& flags, KlogOptions& options);

// Human-readable notes about klog settings we accept but do not act on ("--log-file is ignored:
// logs always go to stderr"), for a start-up warning. Empty when nothing is ignored.
std::vector<std::string> ignored_settings(const KlogOptions& options);

}  // namespace vc::flags
