#include "common/log/line_format.h"

#include <cstdint>
#include <ctime>
#include <limits>

#include <spdlog/details/log_msg.h>
#include <nlohmann/json.hpp>

namespace vc::log {
namespace {

void append(spdlog::memory_buf_t& out, std::string_view s) {
  out.append(s.data(), s.data() + s.size());
}

// Escapes control characters, quotes and backslashes; other bytes pass through unchanged. Keeps
// every event on one line.
void append_escaped(spdlog::memory_buf_t& out, std::string_view s) {
  for (const char c : s) {
    switch (c) {
      case '"':
        append(out, "\\\"");
        break;
      case '\\':
        append(out, "\\\\");
        break;
      case '\n':
        append(out, "\\n");
        break;
      case '\r':
        append(out, "\\r");
        break;
      case '\t':
        append(out, "\\t");
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned char>(c));
        } else {
          out.push_back(c);
        }
    }
  }
}

// Free text in the message position: no quotes, but still one line.
void append_unquoted_line(spdlog::memory_buf_t& out, std::string_view s) {
  for (const char c : s) {
    if (c == '\n' || c == '\r' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      append_escaped(out, std::string_view(&c, 1));
    } else {
      out.push_back(c);
    }
  }
}

bool needs_quotes(std::string_view v) {
  if (v.empty()) return true;
  for (const char c : v) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == '"' || c == '=' || c == '\\' || c == 0x7f) {
      return true;
    }
  }
  return false;
}

// A JSON string literal. Invalid UTF-8 (network input can hold anything) becomes U+FFFD rather
// than an unparseable line.
void append_json_string(spdlog::memory_buf_t& out, std::string_view s) {
  append(out, nlohmann::json(std::string(s))
                  .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

const char* level_name(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace:
      return "trace";
    case spdlog::level::debug:
      return "debug";
    case spdlog::level::info:
      return "info";
    case spdlog::level::warn:
      return "warn";
    case spdlog::level::err:
      return "error";
    case spdlog::level::critical:
      return "critical";
    default:
      return "off";
  }
}

}  // namespace

void append_timestamp(spdlog::memory_buf_t& out, std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  const auto since_epoch = t.time_since_epoch();
  auto secs = duration_cast<seconds>(since_epoch);
  auto micros = duration_cast<microseconds>(since_epoch - secs).count();
  if (micros < 0) {  // times before 1970: floor, not truncate
    secs -= seconds(1);
    micros += 1000000;
  }
  // Lines come many to a second (one per admission review at -v=3): the date and time are
  // formatted once per second and thread, only the microseconds per line.
  thread_local std::int64_t cached_secs = std::numeric_limits<std::int64_t>::min();
  thread_local fmt::basic_memory_buffer<char, 32> cached;
  if (secs.count() != cached_secs) {
    const std::time_t tt = static_cast<std::time_t>(secs.count());
    std::tm tm{};
    gmtime_r(&tt, &tm);
    cached.clear();
    fmt::format_to(std::back_inserter(cached), "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.",
                   tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
    cached_secs = secs.count();
  }
  out.append(cached.data(), cached.data() + cached.size());
  char digits[7] = {'0', '0', '0', '0', '0', '0', 'Z'};
  for (int i = 5; i >= 0 && micros > 0; --i, micros /= 10) {
    digits[i] = static_cast<char>('0' + micros % 10);
  }
  out.append(digits, digits + sizeof digits);
}

void append_payload(spdlog::memory_buf_t& out, Format format, std::string_view msg,
                    std::initializer_list<Field> fields) {
  if (format == Format::Json) {
    append(out, "\"msg\":");
    append_json_string(out, msg);
    for (const Field& f : fields) {
      out.push_back(',');
      append_json_string(out, f.key);
      out.push_back(':');
      if (f.kind == Field::Kind::String) {
        append_json_string(out, f.value);
      } else {
        append(out, f.value);
      }
    }
    return;
  }
  append_unquoted_line(out, msg);
  for (const Field& f : fields) {
    out.push_back(' ');
    append_unquoted_line(out, f.key);
    out.push_back('=');
    if (needs_quotes(f.value)) {
      out.push_back('"');
      append_escaped(out, f.value);
      out.push_back('"');
    } else {
      append(out, f.value);
    }
  }
}

void LineFormatter::format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) {
  const std::string_view payload(msg.payload.data(), msg.payload.size());
  const bool structured =
      std::string_view(msg.logger_name.data(), msg.logger_name.size()) == kStructuredLogger;
  if (format_ == Format::Json) {
    append(dest, "{\"ts\":\"");
    append_timestamp(dest, msg.time);
    append(dest, "\",\"level\":\"");
    append(dest, level_name(msg.level));
    append(dest, "\",");
    if (structured) {
      append(dest, payload);
    } else {
      append_payload(dest, Format::Json, payload, {});
    }
    append(dest, "}\n");
    return;
  }
  append_timestamp(dest, msg.time);
  dest.push_back(' ');
  append(dest, level_name(msg.level));
  dest.push_back(' ');
  if (structured) {
    append(dest, payload);
  } else {
    append_unquoted_line(dest, payload);
  }
  dest.push_back('\n');
}

std::unique_ptr<spdlog::formatter> LineFormatter::clone() const {
  return std::make_unique<LineFormatter>(format_);
}

}  // namespace vc::log
