#include "common/go/yaml_scalar.h"

#include <cmath>
#include <limits>
#include <optional>

#include "common/go/base64.h"
#include "common/go/json_float.h"
#include "common/go/strconv.h"

namespace vc::go {
namespace {

constexpr std::string_view kLongTagPrefix = "tag:yaml.org,2002:";

// go-yaml v2 resolves integers with strconv.ParseInt/ParseUint(s, 0, 64) after dropping "_";
// any error, syntax or range, leaves the scalar to the next rule.
std::optional<std::uint64_t> parse_go_uint(std::string_view s) {
  auto v = parse_uint(s, 64);
  if (!v) return std::nullopt;
  return *v;
}

std::optional<std::int64_t> parse_go_int(std::string_view s) {
  auto v = parse_int(s, 64);
  if (!v) return std::nullopt;
  return *v;
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

// strconv.ParseFloat(s, 64): overflow to infinity is an error, underflow is not.
std::optional<double> parse_go_float(std::string_view s) {
  auto v = parse_float(s, 64);
  if (!v) return std::nullopt;
  return *v;
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
    auto decoded = base64_decode(value);
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
      return nlohmann::json::parse(format_json_float(scalar.floating));
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
      return format_float(f, 'g', 32);
    }
  }
  return scalar.text;
}

}  // namespace vc::go
