#include "common/go/strconv.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/go/short_escape.h"
#include "common/go/unicode.h"
#include "common/go/utf8.h"

namespace vc::go {
namespace {

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// `strconv.ParseInt: parsing "x": invalid syntax`
api::Unexpected num_error(std::string_view fn, std::string_view num, NumError err) {
  return api::Unexpected{"strconv." + std::string(fn) + ": parsing " + quote(num) + ": " +
                         (err == NumError::Range ? "value out of range" : "invalid syntax")};
}

// Go allows '_' only between digits, or between a base prefix and a digit.
bool underscore_ok(std::string_view s) {
  char saw = '^';  // ^ start, 0 digit or prefix, _ underscore, ! anything else
  size_t i = 0;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0' &&
      (lower(s[1]) == 'b' || lower(s[1]) == 'o' || lower(s[1]) == 'x')) {
    i = 2;
    saw = '0';
    hex = lower(s[1]) == 'x';
  }
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if ((c >= '0' && c <= '9') || (hex && lower(c) >= 'a' && lower(c) <= 'f')) {
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

// ParseUint's digit loop. base 0 means "from the prefix" and allows underscores.
NumError parse_unsigned(std::string_view s, int base, int bits, std::uint64_t& out) {
  out = 0;
  if (s.empty()) return NumError::Syntax;
  const bool base0 = base == 0;
  const std::string_view s0 = s;
  if (base0) {
    base = 10;
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
  }
  const std::uint64_t max_value =
      bits >= 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1;
  const std::uint64_t cutoff = std::numeric_limits<std::uint64_t>::max() / base + 1;
  bool underscores = false;
  std::uint64_t n = 0;
  for (const char c : s) {
    int d;
    if (c == '_' && base0) {
      underscores = true;
      continue;
    } else if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (lower(c) >= 'a' && lower(c) <= 'z') {
      d = lower(c) - 'a' + 10;
    } else {
      return NumError::Syntax;
    }
    if (d >= base) return NumError::Syntax;
    if (n >= cutoff) return NumError::Range;
    n *= static_cast<std::uint64_t>(base);
    const std::uint64_t n1 = n + static_cast<std::uint64_t>(d);
    if (n1 < n || n1 > max_value) return NumError::Range;
    n = n1;
  }
  if (underscores && !underscore_ok(s0)) return NumError::Syntax;
  out = n;
  return NumError::None;
}

api::Expected<std::int64_t> parse_signed(std::string_view s, int base, int bits) {
  const IntParse r = parse_int_full(s, base, bits);
  if (r.error != NumError::None) return num_error("ParseInt", s, r.error);
  return r.value;
}

size_t common_prefix_ignore_case(std::string_view s, std::string_view prefix) {
  size_t n = 0;
  while (n < s.size() && n < prefix.size() && lower(s[n]) == prefix[n]) ++n;
  return n;
}

// Go's special(): "inf", "infinity" (optionally signed) and "nan"; returns the characters used.
size_t special_float(std::string_view s, double& out) {
  if (s.empty()) return 0;
  double sign = 1;
  size_t nsign = 0;
  std::string_view rest = s;
  if (s[0] == '+' || s[0] == '-') {
    sign = s[0] == '-' ? -1 : 1;
    nsign = 1;
    rest.remove_prefix(1);
  }
  if (!rest.empty() && lower(rest[0]) == 'i') {
    size_t n = common_prefix_ignore_case(rest, "infinity");
    if (n > 3 && n < 8) n = 3;
    if (n == 3 || n == 8) {
      out = sign * std::numeric_limits<double>::infinity();
      return nsign + n;
    }
  } else if (nsign == 0 && !rest.empty() && lower(rest[0]) == 'n') {
    if (common_prefix_ignore_case(rest, "nan") == 3) {
      out = std::numeric_limits<double>::quiet_NaN();
      return 3;
    }
  }
  return 0;
}

// Whether s is exactly one Go floating-point literal (readFloat's grammar).
bool float_syntax_ok(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  bool hex = false;
  if (i + 2 < s.size() && s[i] == '0' && lower(s[i + 1]) == 'x') {
    hex = true;
    i += 2;
  }
  bool underscores = false, sawdot = false, sawdigits = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '_') {
      underscores = true;
    } else if (c == '.') {
      if (sawdot) break;
      sawdot = true;
    } else if ((c >= '0' && c <= '9') || (hex && lower(c) >= 'a' && lower(c) <= 'f')) {
      sawdigits = true;
    } else {
      break;
    }
  }
  if (!sawdigits) return false;
  if (i < s.size() && lower(s[i]) == (hex ? 'p' : 'e')) {
    ++i;
    if (i >= s.size()) return false;
    if (s[i] == '+' || s[i] == '-') ++i;
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
    for (; i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '_'); ++i) {
      if (s[i] == '_') underscores = true;
    }
  } else if (hex) {
    return false;  // a hex mantissa needs a 'p' exponent
  }
  if (underscores && !underscore_ok(s.substr(0, i))) return false;
  return i == s.size();
}

// The shortest decimal digits of v and the position of the decimal point (Go's decimalSlice:
// v = 0.<digits> * 10^point).
void shortest_digits(double v, int bits, std::string& digits, int& point) {
  char buf[64];
  const auto r = bits == 32
                     ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v),
                                     std::chars_format::scientific)
                     : std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  const std::string_view text(buf, static_cast<size_t>(r.ptr - buf));  // "1.2345e+06"
  const size_t e = text.find('e');
  for (const char c : text.substr(0, e)) {
    if (c >= '0' && c <= '9') digits.push_back(c);
  }
  int exponent = 0;
  std::from_chars(text.data() + e + (text[e + 1] == '+' ? 2 : 1), text.data() + text.size(),
                  exponent);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  point = digits == "0" ? 1 : exponent + 1;
}

}  // namespace

IntParse parse_int_full(std::string_view s, int base, int bits) {
  if (base != 0 && (base < 2 || base > 36)) {
    throw std::invalid_argument("parse_int_full: invalid base " + std::to_string(base));
  }
  if (bits < 1 || bits > 64) {
    throw std::invalid_argument("parse_int_full: invalid bit size " + std::to_string(bits));
  }
  if (s.empty()) return {0, NumError::Syntax};
  bool neg = false;
  if (s[0] == '+') {
    s.remove_prefix(1);
  } else if (s[0] == '-') {
    neg = true;
    s.remove_prefix(1);
  }
  std::uint64_t un = 0;
  const NumError err = parse_unsigned(s, base, bits, un);
  if (err == NumError::Syntax) return {0, NumError::Syntax};
  // C++20 shifts a negative value arithmetically, so these are -2^(bits-1) and 2^(bits-1)-1.
  const std::int64_t min = std::numeric_limits<std::int64_t>::min() >> (64 - bits);
  const std::int64_t max = std::numeric_limits<std::int64_t>::max() >> (64 - bits);
  const std::uint64_t cutoff = std::uint64_t{1} << (bits - 1);
  // On a range error ParseUint yields its maximum, which is past cutoff: Go clamps to the bound.
  if (!neg && (err == NumError::Range || un >= cutoff)) return {max, NumError::Range};
  if (neg && (err == NumError::Range || un > cutoff)) return {min, NumError::Range};
  if (neg) return {un == cutoff ? min : -static_cast<std::int64_t>(un), NumError::None};
  return {static_cast<std::int64_t>(un), NumError::None};
}

api::Expected<std::int64_t> parse_int(std::string_view s, int bits) {
  return parse_signed(s, 0, bits);
}

api::Expected<std::int64_t> parse_decimal_int(std::string_view s, int bits) {
  return parse_signed(s, 10, bits);
}

api::Expected<std::uint64_t> parse_uint(std::string_view s, int bits) {
  std::uint64_t out = 0;
  const NumError err = parse_unsigned(s, 0, bits, out);
  if (err != NumError::None) return num_error("ParseUint", s, err);
  return out;
}

api::Expected<double> parse_float(std::string_view s, int bits) {
  double special = 0;
  if (const size_t n = special_float(s, special); n > 0) {
    if (n == s.size()) return special;
    return num_error("ParseFloat", s, NumError::Syntax);
  }
  if (!float_syntax_ok(s)) return num_error("ParseFloat", s, NumError::Syntax);
  std::string cleaned;
  for (const char c : s) {
    if (c != '_') cleaned.push_back(c);
  }
  errno = 0;
  // strtod reads Go's decimal and hex (0x1.8p3) forms alike; the process never changes
  // LC_NUMERIC from "C", so '.' is the decimal point.
  const double v = std::strtod(cleaned.c_str(), nullptr);
  if (std::isinf(v)) return num_error("ParseFloat", s, NumError::Range);
  if (bits == 32) {
    const float f = static_cast<float>(v);
    if (std::isinf(f)) return num_error("ParseFloat", s, NumError::Range);
    return static_cast<double>(f);
  }
  return v;
}

api::Expected<bool> parse_bool(std::string_view s) {
  if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True") return true;
  if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False") {
    return false;
  }
  return num_error("ParseBool", s, NumError::Syntax);
}

std::string format_float(double v, int bits) {
  return format_float(v, 'g', bits);
}

std::string format_float(double v, char fmt, int bits) {
  if (fmt != 'e' && fmt != 'f' && fmt != 'g') {
    throw std::invalid_argument(std::string("format_float: unsupported format ") + fmt);
  }
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  std::string out = std::signbit(v) ? "-" : "";
  std::string digits;
  int point = 0;
  shortest_digits(std::fabs(v), bits, digits, point);
  const int nd = static_cast<int>(digits.size());
  // Go's %g with the shortest precision: %e when the exponent is below -4 or at least 6.
  if (fmt == 'g') fmt = (point - 1 < -4 || point - 1 >= 6) ? 'e' : 'f';
  if (fmt == 'e') {
    const int exp = digits == "0" ? 0 : point - 1;
    out += digits[0];
    if (nd > 1) out += "." + digits.substr(1);
    out += exp < 0 ? "e-" : "e+";
    const int a = exp < 0 ? -exp : exp;
    if (a < 10) out += '0';
    return out + std::to_string(a);
  }
  if (point <= 0) return out + "0." + std::string(static_cast<size_t>(-point), '0') + digits;
  if (point >= nd) return out + digits + std::string(static_cast<size_t>(point - nd), '0');
  return out + digits.substr(0, static_cast<size_t>(point)) + "." +
         digits.substr(static_cast<size_t>(point));
}

std::string quote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  out.reserve(s.size() + 2);
  const auto hex_escape = [&](char prefix, std::uint32_t value, int width) {
    out += '\\';
    out += prefix;
    for (int shift = 4 * (width - 1); shift >= 0; shift -= 4) out += kHex[(value >> shift) & 0xF];
  };
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence_length(s, i);
    if (n == 0) {  // a byte that starts no valid sequence
      hex_escape('x', static_cast<unsigned char>(s[i]), 2);
      ++i;
      continue;
    }
    const std::uint32_t r = decode_rune(s.substr(i, n));
    if (n == 1) {
      const char c = s[i];
      if (const char* e = short_escape(static_cast<unsigned char>(c), true)) {
        out += e;
      } else if (r < 0x20 || r == 0x7F) {
        hex_escape('x', r, 2);
      } else {
        out += c;
      }
    } else if (is_print(r)) {
      out.append(s.substr(i, n));
    } else if (r < 0x10000) {
      hex_escape('u', r, 4);
    } else {
      hex_escape('U', r, 8);
    }
    i += n;
  }
  return out + "\"";
}

}  // namespace vc::go
