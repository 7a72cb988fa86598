#include "common/flags/klog_flags.h"

#include <array>

#include "common/go/strconv.h"

namespace vc::flags {
namespace {

constexpr std::array<std::string_view, 4> kSeverities{"INFO", "WARNING", "ERROR", "FATAL"};

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

// klog's severityValue: a name (any case) or a decimal number; printed as the number.
api::Status set_severity(std::string_view text, std::string& target) {
  const std::string name = upper(text);
  for (size_t i = 0; i < kSeverities.size(); ++i) {
    if (name == kSeverities[i]) {
      target = std::string(kSeverities[i]);
      return api::ok_status();
    }
  }
  auto v = go::parse_decimal_int(text, 32);
  if (!v) return api::Unexpected{v.error()};
  target = (*v >= 0 && *v < static_cast<std::int64_t>(kSeverities.size()))
               ? std::string(kSeverities[static_cast<size_t>(*v)])
               : std::to_string(*v);
  return api::ok_status();
}

std::string severity_number(const std::string& name) {
  for (size_t i = 0; i < kSeverities.size(); ++i) {
    if (name == kSeverities[i]) return std::to_string(i);
  }
  return name;
}

// klog's moduleSpec: comma-separated pattern=N with N >= 0.
api::Status check_vmodule(std::string_view text) {
  constexpr std::string_view kSyntax = "syntax error: expect comma-separated list of filename=N";
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view pat = text.substr(start, comma - start);
    start = comma + 1;
    if (pat.empty()) continue;
    const size_t eq = pat.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == pat.size() ||
        pat.find('=', eq + 1) != std::string_view::npos) {
      return api::Unexpected{std::string(kSyntax)};
    }
    auto level = go::parse_decimal_int(pat.substr(eq + 1), 32);
    if (!level) return api::Unexpected{std::string(kSyntax)};
    if (*level < 0) return api::Unexpected{"negative value for vmodule level"};
  }
  return api::ok_status();
}

// klog's traceLocation: "" or "file.go:N" with N > 0.
api::Status set_backtrace_at(std::string_view text, std::string& target) {
  constexpr std::string_view kSyntax = "syntax error: expect file.go:234";
  if (text.empty()) {
    target = ":0";
    return api::ok_status();
  }
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos || text.find(':', colon + 1) != std::string_view::npos) {
    return api::Unexpected{std::string(kSyntax)};
  }
  const std::string_view file = text.substr(0, colon);
  if (file.find('.') == std::string_view::npos) return api::Unexpected{std::string(kSyntax)};
  auto line = go::parse_decimal_int(text.substr(colon + 1), 64);
  if (!line) return api::Unexpected{std::string(kSyntax)};
  if (*line <= 0) return api::Unexpected{"negative or zero value for level"};
  target = std::string(text);
  return api::ok_status();
}

}  // namespace

void add_klog_flags(FlagSet& flags, KlogOptions& o) {
  flags.var("v",
            std::make_unique<FuncValue>(
                "Level",
                [&o](std::string_view text) -> api::Status {
                  auto v = go::parse_decimal_int(text, 32);
                  if (!v) return api::Unexpected{v.error()};
                  o.v = static_cast<int>(*v);
                  return api::ok_status();
                },
                [&o] { return std::to_string(o.v); }),
            "Log verbosity: 0 logs state changes, 2 and 3 add decisions, 4 and up add detail.");
  flags.var("vmodule",
            std::make_unique<FuncValue>(
                "pattern=N",
                [&o](std::string_view text) -> api::Status {
                  if (auto checked = check_vmodule(text); !checked) return checked;
                  o.vmodule = std::string(text);
                  return api::ok_status();
                },
                [&o] { return o.vmodule; }),
            "Per-file verbosity (pattern=N,...); accepted for compatibility, not applied.");
  flags.var("logtostderr", std::make_unique<BoolValue>(&o.logtostderr, true),
            "Log to standard error (always the case here).");
  flags.var("alsologtostderr", std::make_unique<BoolValue>(&o.alsologtostderr, true),
            "Also log to standard error when logging to files (logs always go to stderr here).");
  flags.string_var("log_dir", &o.log_dir,
                   "Directory for log files; accepted for compatibility, logs go to stderr.");
  flags.string_var("log_file", &o.log_file,
                   "Log file; accepted for compatibility, logs go to stderr.");
  flags.var("log_file_max_size", std::make_unique<UintValue>(&o.log_file_max_size, true),
            "Maximum log file size in MB; accepted for compatibility.");
  flags.var(
      "stderrthreshold",
      std::make_unique<FuncValue>(
          "severity", [&o](std::string_view text) { return set_severity(text, o.stderrthreshold); },
          [&o] { return severity_number(o.stderrthreshold); }),
      "Lowest severity written to stderr when also logging to files; accepted for "
      "compatibility.");
  flags.var("skip_headers", std::make_unique<BoolValue>(&o.skip_headers, true),
            "Leave out the header of each line; accepted for compatibility.");
  flags.var("skip_log_headers", std::make_unique<BoolValue>(&o.skip_log_headers, true),
            "Leave out the headers of log files; accepted for compatibility.");
  flags.var("add_dir_header", std::make_unique<BoolValue>(&o.add_dir_header, true),
            "Add the source directory to the header; accepted for compatibility.");
  flags.var("one_output", std::make_unique<BoolValue>(&o.one_output, true),
            "Write each line only at its own severity; accepted for compatibility.");
  flags.var("log_backtrace_at",
            std::make_unique<FuncValue>(
                "traceLocation",
                [&o](std::string_view text) { return set_backtrace_at(text, o.log_backtrace_at); },
                [&o] { return o.log_backtrace_at; }),
            "Emit a stack trace when logging at file:N; accepted for compatibility.");
  flags.var("legacy_stderr_threshold_behavior",
            std::make_unique<BoolValue>(&o.legacy_stderr_threshold_behavior, true),
            "klog's old stderrthreshold rule; accepted for compatibility.");
  flags.duration_var("log-flush-frequency", &o.log_flush_frequency,
                     "Longest time between log flushes (ignored: info lines are written at once, "
                     "debug lines within 100ms).");
}

std::vector<std::string> ignored_settings(const KlogOptions& o) {
  std::vector<std::string> out;
  if (!o.logtostderr) out.push_back("--logtostderr=false is ignored: logs always go to stderr");
  if (!o.log_dir.empty()) out.push_back("--log-dir is ignored: logs always go to stderr");
  if (!o.log_file.empty()) out.push_back("--log-file is ignored: logs always go to stderr");
  if (!o.vmodule.empty()) out.push_back("--vmodule is ignored: use -v");
  if (o.log_backtrace_at != ":0") out.push_back("--log-backtrace-at is ignored");
  return out;
}

}  // namespace vc::flags
