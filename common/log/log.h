#pragma once
// Process logging: one line per event with `key=value` fields, as text or JSON lines, on top of
// spdlog. Verbosity follows klog: `-v N` maps to a level (0-1 info, 2-3 debug, 4+ trace) and v(n)
// gates expensive detail.
//
//   vc::log::setup({.format = vc::log::Format::Json, .verbosity = 2});
//   VC_LOG_INFO("created pod", kv("pod", key), kv("job", job));
//   VC_LOG_DEBUG("skipping sync", kv("job", job), kv("reason", why));
//   if (vc::log::v(4)) { ... build a dump ... }
//
// The macros evaluate their field arguments only when the level is enabled, so a disabled debug
// line costs one relaxed atomic load.
//
// Thread-safety: setup() is meant for start-up (and tests) and must not race with code that logs
// through spdlog's default logger directly; every other function may be called from any thread.

#include <initializer_list>
#include <iosfwd>
#include <string>
#include <string_view>

#include "common/log/field.h"

namespace vc::log {

enum class Level { Trace = 0, Debug = 1, Info = 2, Warn = 3, Error = 4 };
enum class Format { Text, Json };

struct Options {
  Format format = Format::Text;
  int verbosity = 0;  // klog -v
};

// "text" or "json"; throws std::invalid_argument naming the bad value otherwise.
Format parse_format(std::string_view name);
// The least severe level shown at a verbosity: 0-1 info, 2-3 debug, 4+ trace.
Level level_for_verbosity(int verbosity);
const char* to_string(Level level);

// Installs the process logger writing to stderr. Also replaces spdlog's default logger so that
// plain spdlog::info(...) calls come out in the same format. Throws std::invalid_argument for a
// negative verbosity.
void setup(const Options& options);
// Same, writing to out (tests capture output this way); out must outlive the logger, i.e. until
// the next setup() call.
void setup(const Options& options, std::ostream& out);

// The configured -v.
int verbosity();
// True when the configured verbosity is at least n (klog's V(n).Enabled()).
bool v(int n);
// True when lines at this level are written.
bool enabled(Level level);

// Writes the lines the process's stderr sink still holds (debug lines wait up to 100 ms; lines at
// info and above are written at once). Registered with atexit when that sink is first made.
void flush();

// Writes one line. Prefer the macros below, which skip building fields when the level is off.
void write(Level level, std::string_view msg, std::initializer_list<Field> fields = {});

}  // namespace vc::log

#define VC_LOG_AT(level, msg, ...)                                              \
  do {                                                                          \
    if (::vc::log::enabled(level)) ::vc::log::write(level, msg, {__VA_ARGS__}); \
  } while (0)

#define VC_LOG_TRACE(msg, ...) VC_LOG_AT(::vc::log::Level::Trace, msg __VA_OPT__(, ) __VA_ARGS__)
#define VC_LOG_DEBUG(msg, ...) VC_LOG_AT(::vc::log::Level::Debug, msg __VA_OPT__(, ) __VA_ARGS__)
#define VC_LOG_INFO(msg, ...) VC_LOG_AT(::vc::log::Level::Info, msg __VA_OPT__(, ) __VA_ARGS__)
#define VC_LOG_WARN(msg, ...) VC_LOG_AT(::vc::log::Level::Warn, msg __VA_OPT__(, ) __VA_ARGS__)
#define VC_LOG_ERROR(msg, ...) VC_LOG_AT(::vc::log::Level::Error, msg __VA_OPT__(, ) __VA_ARGS__)

// klog's V(n).Info: written when -v is at least n, at the level that verbosity maps to.
#define VC_LOG_V(n, msg, ...)                                                                     \
  do {                                                                                            \
    if (::vc::log::v(n)) ::vc::log::write(::vc::log::level_for_verbosity(n), msg, {__VA_ARGS__}); \
  } while (0)
