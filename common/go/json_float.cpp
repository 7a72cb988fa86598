#include "common/go/json_float.h"

#include <cmath>

#include "common/go/strconv.h"

namespace vc::go {

std::string format_json_float(double value) {
  const double magnitude = std::fabs(value);
  const bool exponent = magnitude != 0 && (magnitude < 1e-6 || magnitude >= 1e21);
  std::string s = format_float(value, exponent ? 'e' : 'f', 64);
  // encoding/json shortens a two-digit negative exponent: "1e-07" -> "1e-7".
  const std::size_t n = s.size();
  if (exponent && n >= 4 && s[n - 4] == 'e' && s[n - 3] == '-' && s[n - 2] == '0') {
    s[n - 2] = s[n - 1];
    s.pop_back();
  }
  return s;
}

}  // namespace vc::go
