#pragma once
// How one log line is laid out. Kept apart from the logger state so the layout is tested on its
// own.
//
// Text:  2024-01-02T15:04:05.123456Z info created pod pod=ns/p1 reason="no quota"
// JSON:  {"ts":"2024-01-02T15:04:05.123456Z","level":"info","msg":"created pod","pod":"ns/p1"}
//
// A structured call pre-renders its message and fields into the spdlog payload in the configured
// format; LineFormatter adds the timestamp and level. Lines logged through plain spdlog (whose
// payload is free text) are recognised by their logger name and escaped as the message.

#include <chrono>
#include <initializer_list>
#include <memory>
#include <string_view>

#include <spdlog/formatter.h>

#include "common/log/field.h"
#include "common/log/log.h"

namespace vc::log {

// The logger name structured calls log under; LineFormatter trusts those payloads.
inline constexpr std::string_view kStructuredLogger = "vc";

// "2024-01-02T15:04:05.123456Z" (UTC, microseconds).
void append_timestamp(spdlog::memory_buf_t& out, std::chrono::system_clock::time_point t);

// The payload of a structured line: `msg k=v k2="v 2"` in text, `"msg":"..","k":"v"` in JSON.
void append_payload(spdlog::memory_buf_t& out, Format format, std::string_view msg,
                    std::initializer_list<Field> fields);

// Thread-safety: spdlog calls format() under the sink's lock; the object has no mutable state.
class LineFormatter final : public spdlog::formatter {
 public:
  explicit LineFormatter(Format format) : format_(format) {}
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override;
  std::unique_ptr<spdlog::formatter> clone() const override;

 private:
  Format format_;
};

}  // namespace vc::log
