#pragma once
// Go's strconv, byte for byte: what pflag and klog parse flag values with, what queue and
// hierarchy validation parse weights with, how Kubernetes quotes a bad value in a field error.
// Errors carry Go's exact text, e.g. `strconv.ParseInt: parsing "abc": invalid syntax`, because
// pflag puts that text into `invalid argument "abc" for "--port" flag: ...`.
// golden_test.cpp checks every function here against Go itself (golden/main.go).
//
// Thread-safety: pure functions.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/api/expected.h"

namespace vc::go {

// The kinds of Go's strconv.NumError.
enum class NumError { None, Syntax, Range };

// Both results of strconv.ParseInt, for callers that keep Go's value next to the error, as Go's
// flag package stores it: value is 0 on a syntax error and the bound nearest the text (the
// largest or smallest `bits`-bit integer) on a range error.
struct IntParse {
  std::int64_t value = 0;
  NumError error = NumError::None;
};
// strconv.ParseInt(s, base, bits): base 0 (from the prefix, underscores allowed) or 2 to 36,
// bits 1 to 64. Another base or bits is a programmer error (std::invalid_argument).
IntParse parse_int_full(std::string_view s, int base = 0, int bits = 64);

// strconv.ParseInt(s, 0, bits): optional sign, base prefix 0x/0o/0b or a leading 0 (octal),
// underscores between digits.
api::Expected<std::int64_t> parse_int(std::string_view s, int bits = 64);
// strconv.ParseUint(s, 0, bits): as parse_int without a sign.
api::Expected<std::uint64_t> parse_uint(std::string_view s, int bits = 64);
// strconv.ParseInt(s, 10, bits): decimal only, as klog parses -v.
api::Expected<std::int64_t> parse_decimal_int(std::string_view s, int bits = 64);
// strconv.ParseFloat(s, bits) with bits 32 or 64: decimal and hex floats, "inf", "nan".
api::Expected<double> parse_float(std::string_view s, int bits = 64);
// strconv.ParseBool: 1 t T TRUE true True / 0 f F FALSE false False.
api::Expected<bool> parse_bool(std::string_view s);

// strconv.FormatFloat(v, 'g', -1, bits): the shortest text that reads back as v ("50",
// "0.5", "1e+06").
std::string format_float(double v, int bits = 64);
// strconv.FormatFloat(v, fmt, -1, bits) for fmt 'e' ("1.5e+06"), 'f' ("1500000") or 'g'; the
// shortest digits that read back as v, padded with zeros ('f' of 2^64 is
// "18446744073709552000", not the exact integer). Another fmt is std::invalid_argument.
std::string format_float(double v, char fmt, int bits);

// strconv.Quote: a double-quoted Go string literal. Printable runes stay as they are; \a \b \f
// \n \r \t \v, \" and \\ are escaped; other control bytes and invalid UTF-8 bytes become \xNN,
// other non-printable runes \uNNNN or \UNNNNNNNN. "Printable" follows unicode.IsPrint for every
// assigned code point; unassigned ones are treated as printable (Go escapes them).
std::string quote(std::string_view s);

}  // namespace vc::go
