#include "webhook/check/yaml_scalar.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

namespace vc::webhook::check {
namespace {

constexpr std::string_view kLongTagPrefix = "tag:yaml.org,2002:";

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

// Go's strconv.ParseUint(s, 0, 64): base from the prefix (0b, 0o, 0x, or a leading 0 for
// octal), no sign, no underscores (go-yaml removed them). Syntax and range errors both fail.
std::optional<std::uint64_t> parse_go_uint(std::string_view s) {
  if (s.empty()) return std::nullopt;
  int base = 10;
  if (s[0] == '0') {
    const char p = s.size() >= 3 ? s[1] : '\0';
    if (p == 'b' || p == 'B') {
      base = 2;
      s.remove_prefix(2);
    } else if (p == 'o' || p == 'O') {
      base = 8;
      s.remove_prefix(2);
    } else if (p == 'x' || p == 'X') {
      base = 16;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  std::uint64_t n = 0;
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  for (char c : s) {
    const int d = digit_value(c);
    if (d >= base) return std::nullopt;
    if (n > (kMax - static_cast<std::uint64_t>(d)) / static_cast<std::uint64_t>(base)) {
      return std::nullopt;
    }
    n = n * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  return n;
}

// Go's strconv.ParseInt(s, 0, 64).
std::optional<std::int64_t> parse_go_int(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  auto magnitude = parse_go_uint(s);
  if (!magnitude) return std::nullopt;
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;
  if (negative) {
    if (*magnitude > kLimit) return std::nullopt;
    return *magnitude == kLimit ? std::numeric_limits<std::int64_t>::min()
                                : -static_cast<std::int64_t>(*magnitude);
  }
  if (*magnitude >= kLimit) return std::nullopt;
  return static_cast<std::int64_t>(*magnitude);
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// go-yaml's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool yaml_style_float(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  const std::size_t e = s.find_first_of("eE");
  std::string_view mantissa = s.substr(0, e);
  if (e != std::string_view::npos) {
    std::string_view exponent = s.substr(e + 1);
    if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.remove_prefix(1);
    if (!all_digits(exponent)) return false;
  }
  const std::size_t dot = mantissa.find('.');
  if (dot == std::string_view::npos) return all_digits(mantissa);
  const std::string_view whole = mantissa.substr(0, dot);
  const std::string_view fraction = mantissa.substr(dot + 1);
  if (whole.empty()) return all_digits(fraction);
  return all_digits(whole) && (fraction.empty() || all_digits(fraction));
}

// Go's strconv.ParseFloat for decimal text: the whole input must be consumed; overflow to
// infinity is an error, underflow is not.
std::optional<double> parse_go_float(std::string_view s) {
  if (s.empty()) return std::nullopt;
  const std::string text(s);
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  if (errno == ERANGE && std::isinf(v)) return std::nullopt;
  return v;
}

ResolvedScalar make_string(std::string_view in) {
  ResolvedScalar r;
  r.kind = ResolvedScalar::Kind::String;
  r.text = std::string(in);
  return r;
}

ResolvedScalar make_null() {
  ResolvedScalar r;
  r.kind = ResolvedScalar::Kind::Null;
  return r;
}

ResolvedScalar make_bool(bool v) {
  ResolvedScalar r;
  r.kind = ResolvedScalar::Kind::Bool;
  r.boolean = v;
  return r;
}

ResolvedScalar make_float(double v) {
  ResolvedScalar r;
  r.kind = ResolvedScalar::Kind::Float;
  r.floating = v;
  return r;
}

ResolvedScalar make_int(std::int64_t v) {
  ResolvedScalar r;
  r.kind = ResolvedScalar::Kind::Int;
  r.integer = v;
  return r;
}

// The fixed words of go-yaml's resolve table.
std::optional<ResolvedScalar> lookup_word(std::string_view in) {
  for (std::string_view w :
       {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}) {
    if (in == w) return make_bool(true);
  }
  for (std::string_view w :
       {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}) {
    if (in == w) return make_bool(false);
  }
  for (std::string_view w : {"", "~", "null", "Null", "NULL"}) {
    if (in == w) return make_null();
  }
  for (std::string_view w : {".nan", ".NaN", ".NAN"}) {
    if (in == w) return make_float(std::numeric_limits<double>::quiet_NaN());
  }
  for (std::string_view w : {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}) {
    if (in == w) return make_float(std::numeric_limits<double>::infinity());
  }
  for (std::string_view w : {"-.inf", "-.Inf", "-.INF"}) {
    if (in == w) return make_float(-std::numeric_limits<double>::infinity());
  }
  return std::nullopt;
}

const char* short_tag(ResolvedScalar::Kind kind) {
  switch (kind) {
    case ResolvedScalar::Kind::Null:
      return "!!null";
    case ResolvedScalar::Kind::Bool:
      return "!!bool";
    case ResolvedScalar::Kind::Int:
    case ResolvedScalar::Kind::Uint:
      return "!!int";
    case ResolvedScalar::Kind::Float:
      return "!!float";
    case ResolvedScalar::Kind::String:
      return "!!str";
  }
  return "!!str";
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Go's base64.StdEncoding.DecodeString (padding required; CR and LF ignored).
std::optional<std::string> decode_base64(std::string_view in) {
  std::string clean;
  for (char c : in) {
    if (c != '\r' && c != '\n') clean.push_back(c);
  }
  if (clean.size() % 4 != 0) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < clean.size(); i += 4) {
    const bool last = i + 4 == clean.size();
    int v[4];
    int padding = 0;
    for (int j = 0; j < 4; ++j) {
      const char c = clean[i + static_cast<std::size_t>(j)];
      if (c == '=' && last && j >= 2) {
        v[j] = 0;
        ++padding;
        continue;
      }
      if (padding > 0) return std::nullopt;
      v[j] = base64_value(c);
      if (v[j] < 0) return std::nullopt;
    }
    const unsigned bits = (static_cast<unsigned>(v[0]) << 18) |
                          (static_cast<unsigned>(v[1]) << 12) | (static_cast<unsigned>(v[2]) << 6) |
                          static_cast<unsigned>(v[3]);
    out.push_back(static_cast<char>((bits >> 16) & 0xff));
    if (padding < 2) out.push_back(static_cast<char>((bits >> 8) & 0xff));
    if (padding < 1) out.push_back(static_cast<char>(bits & 0xff));
  }
  return out;
}

}  // namespace

ResolvedScalar resolve_plain(std::string_view in) {
  if (auto word = lookup_word(in)) return *word;
  const char first = in.empty() ? '\0' : in.front();
  if (first == '.') {
    if (auto f = parse_go_float(in)) return make_float(*f);
    return make_string(in);
  }
  const bool sign = first == '+' || first == '-';
  if (!sign && !(first >= '0' && first <= '9')) return make_string(in);

  std::string plain;
  for (char c : in) {
    if (c != '_') plain.push_back(c);
  }
  if (auto i = parse_go_int(plain)) return make_int(*i);
  if (plain.front() != '+' && plain.front() != '-') {
    if (auto u = parse_go_uint(plain)) {
      ResolvedScalar r;
      r.kind = ResolvedScalar::Kind::Uint;
      r.unsigned_integer = *u;
      return r;
    }
  }
  if (yaml_style_float(plain)) {
    if (auto f = parse_go_float(plain)) return make_float(*f);
  }
  return make_string(in);
}

api::Expected<ResolvedScalar> resolve_tagged(std::string_view tag, std::string_view value) {
  if (tag == "!") return make_string(value);
  if (tag == "?" || tag.empty()) return resolve_plain(value);
  if (!tag.starts_with(kLongTagPrefix))
    return make_string(value);  // a local tag: go-yaml
                                // keeps the text
  const std::string_view type = tag.substr(kLongTagPrefix.size());
  if (type == "str") return make_string(value);
  if (type == "binary") {
    auto decoded = decode_base64(value);
    if (!decoded) return api::Unexpected{"!!binary value contains invalid base64 data"};
    return make_string(*decoded);
  }
  if (type == "timestamp") {
    // go-yaml keeps a timestamp as its text when decoding into an untyped value.
    if (value.size() > 4 && all_digits(value.substr(0, 4)) && value[4] == '-') {
      return make_string(value);
    }
  } else if (type != "int" && type != "float" && type != "bool" && type != "null") {
    return make_string(value);  // a tag go-yaml does not resolve (!!map, !!set, ...)
  }
  ResolvedScalar r = resolve_plain(value);
  using Kind = ResolvedScalar::Kind;
  const bool fits = (type == "int" && (r.kind == Kind::Int || r.kind == Kind::Uint)) ||
                    (type == "float" && r.kind == Kind::Float) ||
                    (type == "bool" && r.kind == Kind::Bool) ||
                    (type == "null" && r.kind == Kind::Null);
  if (fits) return r;
  if (type == "float" && r.kind == Kind::Int) return make_float(static_cast<double>(r.integer));
  if (type == "float" && r.kind == Kind::Uint) {
    return make_float(static_cast<double>(r.unsigned_integer));
  }
  return api::Unexpected{"cannot decode " + std::string(short_tag(r.kind)) + " `" +
                         std::string(value) + "` as a !!" + std::string(type)};
}

std::string go_json_float(double value) {
  const double magnitude = std::fabs(value);
  const bool exponent = magnitude != 0 && (magnitude < 1e-6 || magnitude >= 1e21);
  char buf[64];
  const auto result =
      std::to_chars(buf, buf + sizeof buf, value,
                    exponent ? std::chars_format::scientific : std::chars_format::fixed);
  std::string s(buf, result.ptr);
  // encoding/json shortens a two-digit negative exponent: "1e-07" -> "1e-7".
  const std::size_t n = s.size();
  if (exponent && n >= 4 && s[n - 4] == 'e' && s[n - 3] == '-' && s[n - 2] == '0') {
    s[n - 2] = s[n - 1];
    s.pop_back();
  }
  return s;
}

api::Expected<nlohmann::json> scalar_to_json(const ResolvedScalar& scalar) {
  using Kind = ResolvedScalar::Kind;
  switch (scalar.kind) {
    case Kind::Null:
      return nlohmann::json(nullptr);
    case Kind::Bool:
      return nlohmann::json(scalar.boolean);
    case Kind::Int:
      // Non-negative integers are unsigned in nlohmann when parsed from text; keep them alike.
      if (scalar.integer >= 0) return nlohmann::json(static_cast<std::uint64_t>(scalar.integer));
      return nlohmann::json(scalar.integer);
    case Kind::Uint:
      return nlohmann::json(scalar.unsigned_integer);
    case Kind::Float:
      if (std::isnan(scalar.floating)) return api::Unexpected{"json: unsupported value: NaN"};
      if (std::isinf(scalar.floating)) {
        return api::Unexpected{scalar.floating > 0 ? "json: unsupported value: +Inf"
                                                   : "json: unsupported value: -Inf"};
      }
      // Through text, so that an integral float becomes a JSON integer as it does on the wire.
      return nlohmann::json::parse(go_json_float(scalar.floating));
    case Kind::String:
      return nlohmann::json(scalar.text);
  }
  return nlohmann::json(scalar.text);
}

api::Expected<std::string> scalar_key(const ResolvedScalar& scalar) {
  using Kind = ResolvedScalar::Kind;
  switch (scalar.kind) {
    case Kind::String:
      return scalar.text;
    case Kind::Int:
      return std::to_string(scalar.integer);
    case Kind::Bool:
      return std::string(scalar.boolean ? "true" : "false");
    case Kind::Null:
      return api::Unexpected{"unsupported map key: null"};
    case Kind::Uint:
      return api::Unexpected{"unsupported map key: " + std::to_string(scalar.unsigned_integer) +
                             " (an integer above the int64 range)"};
    case Kind::Float: {
      const float f = static_cast<float>(scalar.floating);
      if (std::isnan(f)) return std::string(".nan");
      if (std::isinf(f)) return std::string(f > 0 ? ".inf" : "-.inf");
      // Go's 'g' with the shortest precision: exponent form when the exponent is < -4 or >= 6.
      char buf[64];
      auto sci = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
      const std::string scientific(buf, sci.ptr);
      const int exponent = std::atoi(scientific.c_str() + scientific.find('e') + 1);
      if (f != 0 && (exponent < -4 || exponent >= 6)) return scientific;
      auto fixed = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::fixed);
      return std::string(buf, fixed.ptr);
    }
  }
  return scalar.text;
}

}  // namespace vc::webhook::check
