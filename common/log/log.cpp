#include "common/log/log.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include <spdlog/logger.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include "common/log/buffered_sink.h"
#include "common/log/line_format.h"

namespace vc::log {
namespace {

// Read on every log call, so kept outside the mutex.
std::atomic<int> g_min_level{static_cast<int>(Level::Info)};
std::atomic<int> g_verbosity{0};

struct State {
  std::mutex mu;
  Format format = Format::Text;
  std::shared_ptr<spdlog::logger> logger;  // null until setup() or the first line
};

State& state() {
  // Leaked on purpose: threads may still log while static destructors run at exit.
  static auto* s = new State();
  return *s;
}

// The process's sink: stderr, debug lines buffered briefly (buffered_sink.h), the rest written
// as they come. What is buffered is written at exit.
spdlog::sink_ptr stderr_sink() {
  static const bool flush_at_exit = [] { return std::atexit(flush) == 0; }();
  (void)flush_at_exit;
  return std::make_shared<BufferedFdSink>(STDERR_FILENO);
}

spdlog::level::level_enum to_spdlog(Level level) {
  switch (level) {
    case Level::Trace:
      return spdlog::level::trace;
    case Level::Debug:
      return spdlog::level::debug;
    case Level::Info:
      return spdlog::level::info;
    case Level::Warn:
      return spdlog::level::warn;
    case Level::Error:
      return spdlog::level::err;
  }
  return spdlog::level::info;
}

// Caller holds state().mu.
void install(State& s, const Options& options, spdlog::sink_ptr sink) {
  if (options.verbosity < 0) {
    throw std::invalid_argument("log verbosity must be >= 0, got " +
                                std::to_string(options.verbosity));
  }
  const Level min_level = level_for_verbosity(options.verbosity);
  sink->set_formatter(std::make_unique<LineFormatter>(options.format));
  auto structured = std::make_shared<spdlog::logger>(std::string(kStructuredLogger), sink);
  structured->set_level(to_spdlog(min_level));
  auto plain = std::make_shared<spdlog::logger>("", sink);
  plain->set_level(to_spdlog(min_level));
  spdlog::set_default_logger(plain);

  s.format = options.format;
  s.logger = std::move(structured);
  g_verbosity.store(options.verbosity, std::memory_order_relaxed);
  g_min_level.store(static_cast<int>(min_level), std::memory_order_relaxed);
}

}  // namespace

Format parse_format(std::string_view name) {
  if (name == "text") return Format::Text;
  if (name == "json") return Format::Json;
  throw std::invalid_argument("unknown log format \"" + std::string(name) +
                              "\" (want \"text\" or \"json\")");
}

Level level_for_verbosity(int verbosity) {
  if (verbosity >= 4) return Level::Trace;
  if (verbosity >= 2) return Level::Debug;
  return Level::Info;
}

const char* to_string(Level level) {
  switch (level) {
    case Level::Trace:
      return "trace";
    case Level::Debug:
      return "debug";
    case Level::Info:
      return "info";
    case Level::Warn:
      return "warn";
    case Level::Error:
      return "error";
  }
  return "unknown";
}

void setup(const Options& options) {
  State& s = state();
  std::lock_guard lock(s.mu);
  install(s, options, stderr_sink());
}

void setup(const Options& options, std::ostream& out) {
  State& s = state();
  std::lock_guard lock(s.mu);
  // Flush each line: tests read the stream right after logging.
  install(s, options, std::make_shared<spdlog::sinks::ostream_sink_mt>(out, true));
}

int verbosity() {
  return g_verbosity.load(std::memory_order_relaxed);
}

bool v(int n) {
  return verbosity() >= n;
}

bool enabled(Level level) {
  return static_cast<int>(level) >= g_min_level.load(std::memory_order_relaxed);
}

void flush() {
  std::shared_ptr<spdlog::logger> logger;
  {
    State& s = state();
    std::lock_guard lock(s.mu);
    logger = s.logger;
  }
  if (logger) logger->flush();
}

void write(Level level, std::string_view msg, std::initializer_list<Field> fields) {
  if (!enabled(level)) return;
  std::shared_ptr<spdlog::logger> logger;
  Format format;
  {
    State& s = state();
    std::lock_guard lock(s.mu);
    if (!s.logger) install(s, Options{}, stderr_sink());
    logger = s.logger;
    format = s.format;
  }
  spdlog::memory_buf_t payload;
  append_payload(payload, format, msg, fields);
  logger->log(to_spdlog(level), spdlog::string_view_t(payload.data(), payload.size()));
}

}  // namespace vc::log
