#include "webhook/admission/scheduling/go_strconv.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "common/api/label_validation.h"

namespace vc::webhook::scheduling {
namespace {

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool is_hex_letter(char c) {
  const char l = lower(c);
  return l >= 'a' && l <= 'f';
}

// Case-insensitive length of the common prefix of s and word.
std::size_t common_prefix_ignore_case(std::string_view s, std::string_view word) {
  std::size_t n = 0;
  while (n < s.size() && n < word.size() && lower(s[n]) == word[n]) ++n;
  return n;
}

// Go's special(): "inf"/"infinity" with an optional sign, or "nan" without one. Returns the
// number of bytes consumed, 0 when s does not start with a special value.
std::size_t special(std::string_view s, double& value) {
  if (s.empty()) return 0;
  std::size_t sign_len = 0;
  double sign = 1;
  if (s[0] == '+' || s[0] == '-') {
    sign = s[0] == '-' ? -1 : 1;
    sign_len = 1;
    s.remove_prefix(1);
  } else if (lower(s[0]) == 'n') {
    if (common_prefix_ignore_case(s, "nan") != 3) return 0;
    value = std::numeric_limits<double>::quiet_NaN();
    return 3;
  }
  std::size_t n = common_prefix_ignore_case(s, "infinity");
  if (n > 3 && n < 8) n = 3;
  if (n != 3 && n != 8) return 0;
  value = sign * std::numeric_limits<double>::infinity();
  return sign_len + n;
}

// Go's underscoreOK: "_" only between digits, or between a base prefix and a digit.
bool underscores_ok(std::string_view s) {
  char saw = '^';
  std::size_t i = 0;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0' &&
      (lower(s[1]) == 'b' || lower(s[1]) == 'o' || lower(s[1]) == 'x')) {
    i = 2;
    saw = '0';
    hex = lower(s[1]) == 'x';
  }
  for (; i < s.size(); ++i) {
    if (is_digit(s[i]) || (hex && is_hex_letter(s[i]))) {
      saw = '0';
      continue;
    }
    if (s[i] == '_') {
      if (saw != '0') return false;
      saw = '_';
      continue;
    }
    if (saw == '_') return false;
    saw = '!';
  }
  return saw != '_';
}

// Go's readFloat syntax check: the length of the float at the start of s, or 0 if none.
std::size_t scan_float(std::string_view s) {
  std::size_t i = 0;
  bool underscores = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  bool hex = false;
  if (i + 2 < s.size() && s[i] == '0' && lower(s[i + 1]) == 'x') {
    hex = true;
    i += 2;
  }
  bool saw_dot = false;
  bool saw_digits = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '_') {
      underscores = true;
    } else if (c == '.') {
      if (saw_dot) break;
      saw_dot = true;
    } else if (is_digit(c) || (hex && is_hex_letter(c))) {
      saw_digits = true;
    } else {
      break;
    }
  }
  if (!saw_digits) return 0;
  if (i < s.size() && lower(s[i]) == (hex ? 'p' : 'e')) {
    ++i;
    if (i >= s.size()) return 0;
    if (s[i] == '+' || s[i] == '-') ++i;
    if (i >= s.size() || !is_digit(s[i])) return 0;
    for (; i < s.size() && (is_digit(s[i]) || s[i] == '_'); ++i) {
      if (s[i] == '_') underscores = true;
    }
  } else if (hex) {
    return 0;  // a hexadecimal mantissa needs a 'p' exponent
  }
  if (underscores && !underscores_ok(s.substr(0, i))) return 0;
  return i;
}

std::string error_text(std::string_view s, std::string_view what) {
  return "strconv.ParseFloat: parsing " + api::go_quote(s) + ": " + std::string(what);
}

}  // namespace

api::Expected<double> go_parse_float(std::string_view s) {
  double value = 0;
  if (const std::size_t n = special(s, value); n != 0) {
    if (n == s.size()) return value;
    return api::Unexpected{error_text(s, "invalid syntax")};
  }
  if (scan_float(s) != s.size() || s.empty()) {
    return api::Unexpected{error_text(s, "invalid syntax")};
  }
  std::string digits;
  digits.reserve(s.size());
  for (char c : s) {
    if (c != '_') digits.push_back(c);
  }
  // strtod rounds correctly like Go and reads the same decimal and hexadecimal forms.
  errno = 0;
  char* end = nullptr;
  value = std::strtod(digits.c_str(), &end);
  if (errno == ERANGE && std::isinf(value)) {
    return api::Unexpected{error_text(s, "value out of range")};
  }
  return value;
}

}  // namespace vc::webhook::scheduling
