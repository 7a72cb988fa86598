#include "controllers/job/model/go_duration.h"

#include <cstdint>
#include <string>

namespace vc::controllers::job {

namespace {

// 1<<63: the magnitude of the most negative int64, the largest Go accepts before the sign.
constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

api::Unexpected invalid(std::string_view orig) {
  return {"time: invalid duration " + quote(orig)};
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Nanoseconds per unit, 0 for an unknown unit.
std::uint64_t unit_nanos(std::string_view u) {
  if (u == "ns") return 1;
  if (u == "us" || u == "\u00b5s" || u == "\u03bcs") return 1000;
  if (u == "ms") return 1000 * 1000;
  if (u == "s") return 1000 * 1000 * 1000;
  if (u == "m") return 60ull * 1000 * 1000 * 1000;
  if (u == "h") return 3600ull * 1000 * 1000 * 1000;
  return 0;
}

// Consumes the leading digits of s into an integer; false on overflow past 1<<63.
bool leading_int(std::string_view& s, std::uint64_t& out) {
  std::uint64_t x = 0;
  std::size_t i = 0;
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (x > kLimit / 10) return false;
    x = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (x > kLimit) return false;
  }
  s.remove_prefix(i);
  out = x;
  return true;
}

// Consumes the leading digits of a fraction; digits that no longer fit are dropped (they are
// far below a nanosecond), as Go drops them.
void leading_fraction(std::string_view& s, std::uint64_t& value, double& scale) {
  bool overflow = false;
  std::size_t i = 0;
  value = 0;
  scale = 1;
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (overflow) continue;
    if (value > (kLimit - 1) / 10) {
      overflow = true;
      continue;
    }
    const std::uint64_t next = value * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (next > kLimit) {
      overflow = true;
      continue;
    }
    value = next;
    scale *= 10;
  }
  s.remove_prefix(i);
}

}  // namespace

api::Expected<std::chrono::nanoseconds> parse_go_duration(std::string_view text) {
  const std::string_view orig = text;
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::nanoseconds(0);
  if (s.empty()) return invalid(orig);

  std::uint64_t total = 0;
  while (!s.empty()) {
    if (!(s.front() == '.' || is_digit(s.front()))) return invalid(orig);
    const std::size_t before_int = s.size();
    std::uint64_t whole = 0;
    if (!leading_int(s, whole)) return invalid(orig);
    const bool has_int = s.size() != before_int;

    std::uint64_t frac = 0;
    double scale = 1;
    bool has_frac = false;
    if (!s.empty() && s.front() == '.') {
      s.remove_prefix(1);
      const std::size_t before_frac = s.size();
      leading_fraction(s, frac, scale);
      has_frac = s.size() != before_frac;
    }
    if (!has_int && !has_frac) return invalid(orig);  // "." or ".s"

    std::size_t unit_len = 0;
    while (unit_len < s.size() && s[unit_len] != '.' && !is_digit(s[unit_len])) ++unit_len;
    if (unit_len == 0) return api::Unexpected{"time: missing unit in duration " + quote(orig)};
    const std::string_view unit_text = s.substr(0, unit_len);
    s.remove_prefix(unit_len);
    const std::uint64_t unit = unit_nanos(unit_text);
    if (unit == 0) {
      return api::Unexpected{"time: unknown unit " + quote(unit_text) + " in duration " +
                             quote(orig)};
    }

    if (whole > kLimit / unit) return invalid(orig);
    std::uint64_t part = whole * unit;
    if (frac > 0) {
      // Floating point as in Go, so sub-nanosecond rounding matches.
      part += static_cast<std::uint64_t>(static_cast<double>(frac) *
                                         (static_cast<double>(unit) / scale));
      if (part > kLimit) return invalid(orig);
    }
    total += part;
    if (total > kLimit) return invalid(orig);
  }
  if (negative) {
    // total <= 1<<63, so the negation fits in int64 (1<<63 itself is INT64_MIN).
    return std::chrono::nanoseconds(static_cast<std::int64_t>(0 - total));
  }
  if (total > kLimit - 1) return invalid(orig);
  return std::chrono::nanoseconds(static_cast<std::int64_t>(total));
}

}  // namespace vc::controllers::job
