#include "controllers/job/plugins/go_flags.h"

#include <cstdio>
#include <limits>
#include <stdexcept>

namespace vc::controllers::job::plugins {
namespace {

constexpr const char* kParseError = "parse error";
constexpr const char* kRangeError = "value out of range";

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Go's %q for the error messages: quotes, backslash escapes, \xNN for other control bytes.
std::string go_quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// Go accepts an underscore only between digits, or between a base prefix and a digit.
bool underscores_ok(std::string_view s) {
  char saw = '^';  // ^ start, 0 digit or prefix, _ underscore, ! anything else
  std::size_t i = 0;
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0' &&
      (lower(s[1]) == 'b' || lower(s[1]) == 'o' || lower(s[1]) == 'x')) {
    i = 2;
    saw = '0';
    hex = lower(s[1]) == 'x';
  }
  for (; i < s.size(); ++i) {
    const char c = lower(s[i]);
    if ((c >= '0' && c <= '9') || (hex && c >= 'a' && c <= 'f')) {
      saw = '0';
      continue;
    }
    if (c == '_') {
      if (saw != '0') return false;
      saw = '_';
      continue;
    }
    if (saw == '_') return false;
    saw = '!';
  }
  return saw != '_';
}

// strconv.ParseUint(s, 0, 64) for an unsigned magnitude; value is UINT64_MAX on overflow.
struct GoUint {
  std::uint64_t value = 0;
  const char* error = nullptr;
};
GoUint parse_uint_base0(std::string_view s) {
  if (s.empty()) return {0, kParseError};
  const std::string_view original = s;
  unsigned base = 10;
  if (s[0] == '0') {
    if (s.size() >= 3 && lower(s[1]) == 'b') {
      base = 2;
      s.remove_prefix(2);
    } else if (s.size() >= 3 && lower(s[1]) == 'o') {
      base = 8;
      s.remove_prefix(2);
    } else if (s.size() >= 3 && lower(s[1]) == 'x') {
      base = 16;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t cutoff = kMax / base + 1;
  bool underscores = false;
  std::uint64_t n = 0;
  for (char raw : s) {
    const char c = lower(raw);
    unsigned d;
    if (c == '_') {
      underscores = true;
      continue;
    } else if (c >= '0' && c <= '9') {
      d = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'z') {
      d = static_cast<unsigned>(c - 'a' + 10);
    } else {
      return {0, kParseError};
    }
    if (d >= base) return {0, kParseError};
    if (n >= cutoff) return {kMax, kRangeError};
    n *= base;
    const std::uint64_t next = n + d;
    if (next < n) return {kMax, kRangeError};
    n = next;
  }
  if (underscores && !underscores_ok(original)) return {0, kParseError};
  return {n, nullptr};
}

}  // namespace

GoInt go_parse_int(std::string_view s) {
  if (s.empty()) return {0, kParseError};
  bool negative = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  const GoUint u = parse_uint_base0(s);
  if (u.error != nullptr && std::string_view(u.error) != kRangeError) return {0, u.error};
  constexpr std::uint64_t kCutoff = std::uint64_t{1} << 63;
  if (!negative && u.value >= kCutoff)
    return {std::numeric_limits<std::int64_t>::max(), kRangeError};
  if (negative && u.value > kCutoff) return {std::numeric_limits<std::int64_t>::min(), kRangeError};
  if (negative) {
    // -2^63 is representable although +2^63 is not: negate in unsigned arithmetic.
    return {static_cast<std::int64_t>(~u.value + 1), u.error ? u.error : ""};
  }
  return {static_cast<std::int64_t>(u.value), u.error ? u.error : ""};
}

std::optional<bool> go_parse_bool(std::string_view s) {
  if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True") return true;
  if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False")
    return false;
  return std::nullopt;
}

std::optional<std::int64_t> go_atoi(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  // Accumulate the magnitude; 2^63 is allowed only for a negative number.
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;
  std::uint64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (n > (kLimit - d) / 10) return std::nullopt;
    n = n * 10 + d;
  }
  if (!negative && n == kLimit) return std::nullopt;
  return negative ? static_cast<std::int64_t>(~n + 1) : static_cast<std::int64_t>(n);
}

void GoFlagSet::add(std::string name, Kind kind, void* target) {
  if (find(name) != nullptr) throw std::logic_error("flag redefined: " + name);
  flags_.push_back(Flag{std::move(name), kind, target});
}

void GoFlagSet::add_string(std::string name, std::string* target) {
  add(std::move(name), Kind::String, target);
}
void GoFlagSet::add_int(std::string name, std::int64_t* target) {
  add(std::move(name), Kind::Int, target);
}
void GoFlagSet::add_bool(std::string name, bool* target) {
  add(std::move(name), Kind::Bool, target);
}

const GoFlagSet::Flag* GoFlagSet::find(std::string_view name) const {
  for (const Flag& f : flags_) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool GoFlagSet::parse_one(const std::vector<std::string>& args, std::size_t& i,
                          std::string& error) {
  const std::string& s = args[i];
  if (s.size() < 2 || s[0] != '-') return false;
  std::size_t minuses = 1;
  if (s[1] == '-') {
    minuses = 2;
    if (s.size() == 2) {  // "--" ends the flags and is consumed
      ++i;
      return false;
    }
  }
  std::string name = s.substr(minuses);
  if (name.empty() || name[0] == '-' || name[0] == '=') {
    error = "bad flag syntax: " + s;
    return false;
  }
  ++i;
  bool has_value = false;
  std::string value;
  if (const auto eq = name.find('=', 1); eq != std::string::npos) {
    value = name.substr(eq + 1);
    has_value = true;
    name.resize(eq);
  }
  const Flag* flag = find(name);
  if (flag == nullptr) {
    error = (name == "help" || name == "h") ? "flag: help requested"
                                            : "flag provided but not defined: -" + name;
    return false;
  }
  if (flag->kind == Kind::Bool) {
    auto* target = static_cast<bool*>(flag->target);
    if (!has_value) {
      *target = true;
      return true;
    }
    const auto parsed = go_parse_bool(value);
    *target = parsed.value_or(false);
    if (!parsed) {
      error = "invalid boolean value " + go_quote(value) + " for -" + name + ": " + kParseError;
      return false;
    }
    return true;
  }
  if (!has_value && i < args.size()) {
    value = args[i++];
    has_value = true;
  }
  if (!has_value) {
    error = "flag needs an argument: -" + name;
    return false;
  }
  if (flag->kind == Kind::String) {
    *static_cast<std::string*>(flag->target) = value;
    return true;
  }
  const GoInt parsed = go_parse_int(value);
  *static_cast<std::int64_t*>(flag->target) = parsed.value;
  if (!parsed.error.empty()) {
    error = "invalid value " + go_quote(value) + " for flag -" + name + ": " + parsed.error;
    return false;
  }
  return true;
}

std::string GoFlagSet::parse(const std::vector<std::string>& args) {
  std::string error;
  std::size_t i = 0;
  while (i < args.size() && parse_one(args, i, error)) {
  }
  remaining_.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  return error;
}

}  // namespace vc::controllers::job::plugins
