#include "common/go/duration.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>

namespace vc::go {
namespace {

constexpr std::uint64_t kNs = 1;
constexpr std::uint64_t kUs = 1000 * kNs;
constexpr std::uint64_t kMs = 1000 * kUs;
constexpr std::uint64_t kSecond = 1000 * kMs;
constexpr std::uint64_t kMinute = 60 * kSecond;
constexpr std::uint64_t kHour = 60 * kMinute;
constexpr std::uint64_t kMaxMagnitude = std::uint64_t{1} << 63;

constexpr std::array<std::pair<std::string_view, std::uint64_t>, 8> kUnits{{
    {"ns", kNs},
    {"us", kUs},
    {"\xC2\xB5s", kUs},  // U+00B5 micro sign
    {"\xCE\xBCs", kUs},  // U+03BC Greek small letter mu
    {"ms", kMs},
    {"s", kSecond},
    {"m", kMinute},
    {"h", kHour},
}};

// The time package's own quoting: printable ASCII as is ('"' and '\' escaped), any other byte
// as \xNN.
std::string time_quote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80 || c < ' ') {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Leading decimal digits; false on overflow.
bool leading_int(std::string_view& s, std::uint64_t& x) {
  x = 0;
  size_t i = 0;
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (x > (kMaxMagnitude - 1) / 10) return false;
    x = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (x > kMaxMagnitude) return false;
  }
  s.remove_prefix(i);
  return true;
}

// Digits after the decimal point as x / scale; digits past what fits are dropped.
void leading_fraction(std::string_view& s, std::uint64_t& x, double& scale) {
  x = 0;
  scale = 1;
  bool overflow = false;
  size_t i = 0;
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (overflow) continue;
    if (x > (kMaxMagnitude - 1) / 10) {
      overflow = true;
      continue;
    }
    const std::uint64_t y = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (y > kMaxMagnitude) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  s.remove_prefix(i);
}

// Writes v / 10^prec's fraction (trailing zeros dropped, no '.' when zero) in front of out;
// returns v / 10^prec.
std::uint64_t prepend_fraction(std::string& out, std::uint64_t v, int prec) {
  std::string frac;
  bool print = false;
  for (int i = 0; i < prec; ++i) {
    const auto digit = static_cast<char>('0' + v % 10);
    print = print || digit != '0';
    if (print) frac.insert(frac.begin(), digit);
    v /= 10;
  }
  if (print) out.insert(0, "." + frac);
  return v;
}

}  // namespace

api::Expected<std::chrono::nanoseconds> parse_duration(std::string_view s) {
  const std::string_view orig = s;
  const api::Unexpected invalid{"time: invalid duration " + time_quote(orig)};
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::nanoseconds(0);
  if (s.empty()) return invalid;
  std::uint64_t d = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || is_digit(s[0]))) return invalid;
    std::uint64_t v = 0, f = 0;
    double scale = 1;
    size_t before = s.size();
    if (!leading_int(s, v)) return invalid;
    const bool pre = before != s.size();
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      before = s.size();
      leading_fraction(s, f, scale);
      post = before != s.size();
    }
    if (!pre && !post) return invalid;
    size_t i = 0;
    while (i < s.size() && s[i] != '.' && !is_digit(s[i])) ++i;
    if (i == 0) return api::Unexpected{"time: missing unit in duration " + time_quote(orig)};
    const std::string_view unit_text = s.substr(0, i);
    s.remove_prefix(i);
    std::uint64_t unit = 0;
    for (const auto& [name, value] : kUnits) {
      if (name == unit_text) unit = value;
    }
    if (unit == 0) {
      return api::Unexpected{"time: unknown unit " + time_quote(unit_text) + " in duration " +
                             time_quote(orig)};
    }
    if (v > kMaxMagnitude / unit) return invalid;
    v *= unit;
    if (f > 0) {
      v += static_cast<std::uint64_t>(static_cast<double>(f) * (static_cast<double>(unit) / scale));
      if (v > kMaxMagnitude) return invalid;
    }
    d += v;
    if (d > kMaxMagnitude) return invalid;
  }
  if (neg) {
    return std::chrono::nanoseconds(d == kMaxMagnitude ? INT64_MIN : -static_cast<std::int64_t>(d));
  }
  if (d > kMaxMagnitude - 1) return invalid;
  return std::chrono::nanoseconds(static_cast<std::int64_t>(d));
}

std::string format_duration(std::chrono::nanoseconds duration) {
  const std::int64_t d = duration.count();
  const bool neg = d < 0;
  // Two's complement: the magnitude of INT64_MIN fits in uint64.
  std::uint64_t u = neg ? ~static_cast<std::uint64_t>(d) + 1 : static_cast<std::uint64_t>(d);
  std::string out;
  if (u < kSecond) {
    if (u == 0) return "0s";
    int prec = 0;
    if (u < kUs) {
      out = "ns";
    } else if (u < kMs) {
      prec = 3;
      out = "\xC2\xB5s";
    } else {
      prec = 6;
      out = "ms";
    }
    u = prepend_fraction(out, u, prec);
    out.insert(0, std::to_string(u));
  } else {
    out = "s";
    u = prepend_fraction(out, u, 9);
    out.insert(0, std::to_string(u % 60));
    u /= 60;
    if (u > 0) {
      out.insert(0, std::to_string(u % 60) + "m");
      u /= 60;
      if (u > 0) out.insert(0, std::to_string(u) + "h");
    }
  }
  return neg ? "-" + out : out;
}

}  // namespace vc::go
