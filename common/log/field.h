#pragma once
// Field: one `key=value` pair attached to a log line. kv() turns common value types into a Field
// so call sites stay short: VC_LOG_INFO("created pod", kv("pod", key), kv("job", job)).

#include <concepts>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

namespace vc::log {

struct Field {
  // How the value is written in JSON mode: strings are quoted, numbers and booleans are not.
  enum class Kind { String, Number, Bool };

  // Must outlive the log call; string literals are the expected use.
  std::string_view key;
  std::string value;
  Kind kind = Kind::String;
};

template <class T>
Field kv(std::string_view key, const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return Field{key, value ? "true" : "false", Field::Kind::Bool};
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    return Field{key, std::string(std::string_view(value)), Field::Kind::String};
  } else if constexpr (std::is_integral_v<T>) {
    return Field{key, std::to_string(value), Field::Kind::Number};
  } else if constexpr (std::is_floating_point_v<T>) {
    // JSON has no NaN or infinity; keep those as strings so the line stays valid JSON.
    const bool finite = value == value && value - value == value - value;
    return Field{key, fmt::format("{}", value), finite ? Field::Kind::Number : Field::Kind::String};
  } else {
    return Field{key, fmt::format("{}", value), Field::Kind::String};
  }
}

}  // namespace vc::log

namespace vc {
// Every namespace under vc:: may write kv(...) unqualified inside the logging macros.
using log::kv;
}  // namespace vc
