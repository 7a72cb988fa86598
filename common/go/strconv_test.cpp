#include "common/go/strconv.h"
#include "common/go/duration.h"

#include <cmath>
#include <stdexcept>

#include <gtest/gtest.h>

namespace vc::go {
namespace {

using std::chrono::nanoseconds;
using namespace std::chrono_literals;

TEST(ParseInt, AcceptsGoBasePrefixesAndUnderscores) {
  EXPECT_EQ(*parse_int("42"), 42);
  EXPECT_EQ(*parse_int("-42"), -42);
  EXPECT_EQ(*parse_int("+7"), 7);
  EXPECT_EQ(*parse_int("0x1f"), 31);
  EXPECT_EQ(*parse_int("0X1F"), 31);
  EXPECT_EQ(*parse_int("010"), 8);
  EXPECT_EQ(*parse_int("0o17"), 15);
  EXPECT_EQ(*parse_int("0b101"), 5);
  EXPECT_EQ(*parse_int("1_000"), 1000);
  EXPECT_EQ(*parse_int("0x_1f"), 31);
  EXPECT_EQ(*parse_int("0"), 0);
  EXPECT_EQ(*parse_int("-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(*parse_int("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(*parse_int("-2147483648", 32), -2147483648LL);
}

TEST(ParseInt, ReportsGoSyntaxErrors) {
  for (const char* bad : {"", "abc", "1_", "_1", "1__0", "0x", "08", "1.5", " 1", "--1", "+"}) {
    auto v = parse_int(bad);
    ASSERT_FALSE(v.ok()) << bad;
    EXPECT_EQ(v.error(), std::string("strconv.ParseInt: parsing \"") + bad + "\": invalid syntax");
  }
}

TEST(ParseInt, ReportsRangeErrorsWithTheOriginalText) {
  EXPECT_EQ(parse_int("9223372036854775808").error(),
            "strconv.ParseInt: parsing \"9223372036854775808\": value out of range");
  EXPECT_EQ(parse_int("-99999999999999999999").error(),
            "strconv.ParseInt: parsing \"-99999999999999999999\": value out of range");
  EXPECT_EQ(parse_int("2147483648", 32).error(),
            "strconv.ParseInt: parsing \"2147483648\": value out of range");
}

TEST(ParseIntFull, KeepsGoValueNextToTheError) {
  EXPECT_EQ(parse_int_full("0x1f").value, 31);
  EXPECT_EQ(parse_int_full("0x1f").error, NumError::None);
  EXPECT_EQ(parse_int_full("-010").value, -8);
  EXPECT_EQ(parse_int_full("-9223372036854775808").value, INT64_MIN);
  EXPECT_EQ(parse_int_full("-9223372036854775808").error, NumError::None);
  for (const char* bad : {"", "-", "abc", "1__0", "0x"}) {
    EXPECT_EQ(parse_int_full(bad).error, NumError::Syntax) << bad;
    EXPECT_EQ(parse_int_full(bad).value, 0) << bad;
  }
  // Out of range: Go returns the nearest bound of the bit size.
  EXPECT_EQ(parse_int_full("9223372036854775808").value, INT64_MAX);
  EXPECT_EQ(parse_int_full("99999999999999999999").value, INT64_MAX);
  EXPECT_EQ(parse_int_full("-9223372036854775809").value, INT64_MIN);
  EXPECT_EQ(parse_int_full("-99999999999999999999").error, NumError::Range);
  EXPECT_EQ(parse_int_full("2147483648", 0, 32).value, 2147483647);
  EXPECT_EQ(parse_int_full("-2147483649", 10, 32).value, -2147483648LL);
  EXPECT_EQ(parse_int_full("-2147483649", 10, 32).error, NumError::Range);
}

TEST(ParseIntFull, HonoursAnExplicitBase) {
  EXPECT_EQ(parse_int_full("010", 10).value, 10);
  EXPECT_EQ(parse_int_full("ff", 16).value, 255);
  EXPECT_EQ(parse_int_full("0x10", 10).error, NumError::Syntax);
  EXPECT_EQ(parse_int_full("1_0", 10).error, NumError::Syntax);
}

TEST(ParseIntFull, InvalidBaseOrBitSizeIsAProgrammerError) {
  EXPECT_THROW(parse_int_full("1", 1), std::invalid_argument);
  EXPECT_THROW(parse_int_full("1", 37), std::invalid_argument);
  EXPECT_THROW(parse_int_full("1", 0, 0), std::invalid_argument);
  EXPECT_THROW(parse_int_full("1", 0, 65), std::invalid_argument);
}

TEST(ParseDecimalInt, RejectsBasePrefixesLikeKlog) {
  EXPECT_EQ(*parse_decimal_int("010", 32), 10);
  EXPECT_EQ(parse_decimal_int("0x10", 32).error(),
            "strconv.ParseInt: parsing \"0x10\": invalid syntax");
  EXPECT_EQ(parse_decimal_int("1_0", 32).error(),
            "strconv.ParseInt: parsing \"1_0\": invalid syntax");
}

TEST(ParseUint, RejectsSignsAndChecksBits) {
  EXPECT_EQ(*parse_uint("4294967295", 32), 4294967295u);
  EXPECT_EQ(parse_uint("4294967296", 32).error(),
            "strconv.ParseUint: parsing \"4294967296\": value out of range");
  EXPECT_EQ(parse_uint("-1", 32).error(), "strconv.ParseUint: parsing \"-1\": invalid syntax");
  EXPECT_EQ(*parse_uint("18446744073709551615"), UINT64_MAX);
}

TEST(ParseFloat, AcceptsGoFloatSyntax) {
  EXPECT_DOUBLE_EQ(*parse_float("50"), 50);
  EXPECT_DOUBLE_EQ(*parse_float("-1.5e3"), -1500);
  EXPECT_DOUBLE_EQ(*parse_float(".5"), 0.5);
  EXPECT_DOUBLE_EQ(*parse_float("5."), 5);
  EXPECT_DOUBLE_EQ(*parse_float("0x1.8p1"), 3);
  EXPECT_DOUBLE_EQ(*parse_float("1_000.5"), 1000.5);
  EXPECT_TRUE(std::isinf(*parse_float("-Inf")));
  EXPECT_TRUE(std::isinf(*parse_float("+infinity")));
  EXPECT_TRUE(std::isnan(*parse_float("NaN")));
  EXPECT_DOUBLE_EQ(*parse_float("1e-400"), 0);  // underflow is not an error in Go
}

TEST(ParseFloat, ReportsSyntaxAndRangeErrors) {
  for (const char* bad : {"", "abc", "1e", "0x1.8", "1..2", "+nan", "infin", "1_", "e5", "."}) {
    auto v = parse_float(bad);
    ASSERT_FALSE(v.ok()) << bad;
    EXPECT_EQ(v.error(),
              std::string("strconv.ParseFloat: parsing \"") + bad + "\": invalid syntax");
  }
  EXPECT_EQ(parse_float("1e400").error(),
            "strconv.ParseFloat: parsing \"1e400\": value out of range");
  EXPECT_EQ(parse_float("1e39", 32).error(),
            "strconv.ParseFloat: parsing \"1e39\": value out of range");
}

TEST(ParseBool, AcceptsExactlyGoSpellings) {
  for (const char* t : {"1", "t", "T", "TRUE", "true", "True"}) EXPECT_TRUE(*parse_bool(t)) << t;
  for (const char* f : {"0", "f", "F", "FALSE", "false", "False"})
    EXPECT_FALSE(*parse_bool(f)) << f;
  EXPECT_EQ(parse_bool("yes").error(), "strconv.ParseBool: parsing \"yes\": invalid syntax");
  EXPECT_EQ(parse_bool("tRUE").error(), "strconv.ParseBool: parsing \"tRUE\": invalid syntax");
}

TEST(FormatFloat, PrintsShortestGoGFormat) {
  EXPECT_EQ(format_float(50, 32), "50");
  EXPECT_EQ(format_float(0.5), "0.5");
  EXPECT_EQ(format_float(0), "0");
  EXPECT_EQ(format_float(100000), "100000");
  EXPECT_EQ(format_float(1e6), "1e+06");
  EXPECT_EQ(format_float(1234567), "1.234567e+06");
  EXPECT_EQ(format_float(0.0001), "0.0001");
  EXPECT_EQ(format_float(0.00001), "1e-05");
  EXPECT_EQ(format_float(-2.5), "-2.5");
  EXPECT_EQ(format_float(0.1, 32), "0.1");
  EXPECT_EQ(format_float(std::numeric_limits<double>::infinity()), "+Inf");
}

TEST(ParseDuration, AcceptsGoDurations) {
  EXPECT_EQ(*parse_duration("30s"), 30s);
  EXPECT_EQ(*parse_duration("1m30s"), 90s);
  EXPECT_EQ(*parse_duration("500ms"), 500ms);
  EXPECT_EQ(*parse_duration("1h"), 1h);
  EXPECT_EQ(*parse_duration("1.5h"), 90min);
  EXPECT_EQ(*parse_duration("-2us"), -2us);
  EXPECT_EQ(*parse_duration("3\xC2\xB5s"), 3us);
  EXPECT_EQ(*parse_duration("3\xCE\xBCs"), 3us);
  EXPECT_EQ(*parse_duration("10ns"), 10ns);
  EXPECT_EQ(*parse_duration("0"), 0ns);
  EXPECT_EQ(*parse_duration("+5s"), 5s);
  EXPECT_EQ(*parse_duration(".5s"), 500ms);
  EXPECT_EQ(*parse_duration("1.000000001s"), 1000000001ns);
  EXPECT_EQ(*parse_duration("2562047h47m16.854775807s"), nanoseconds(INT64_MAX));
}

TEST(ParseDuration, ReportsGoErrors) {
  EXPECT_EQ(parse_duration("").error(), "time: invalid duration \"\"");
  EXPECT_EQ(parse_duration("abc").error(), "time: invalid duration \"abc\"");
  EXPECT_EQ(parse_duration("30").error(), "time: missing unit in duration \"30\"");
  EXPECT_EQ(parse_duration("30x").error(), "time: unknown unit \"x\" in duration \"30x\"");
  EXPECT_EQ(parse_duration(".s").error(), "time: invalid duration \".s\"");
  EXPECT_EQ(parse_duration("9999999999h").error(), "time: invalid duration \"9999999999h\"");
  EXPECT_EQ(parse_duration("1\x01s").error(),
            "time: unknown unit \"\\x01s\" in duration \"1\\x01s\"");
}

TEST(FormatDuration, PrintsGoDurationStrings) {
  EXPECT_EQ(format_duration(0ns), "0s");
  EXPECT_EQ(format_duration(30s), "30s");
  EXPECT_EQ(format_duration(90s), "1m30s");
  EXPECT_EQ(format_duration(1h), "1h0m0s");
  EXPECT_EQ(format_duration(5min), "5m0s");
  EXPECT_EQ(format_duration(1500ms), "1.5s");
  EXPECT_EQ(format_duration(500ms), "500ms");
  EXPECT_EQ(format_duration(1500us), "1.5ms");
  EXPECT_EQ(format_duration(2us), "2\xC2\xB5s");
  EXPECT_EQ(format_duration(5ns), "5ns");
  EXPECT_EQ(format_duration(-90s), "-1m30s");
  EXPECT_EQ(format_duration(nanoseconds(INT64_MIN)), "-2562047h47m16.854775808s");
}

TEST(Duration, FormatThenParseRoundTrips) {
  for (const nanoseconds d : {nanoseconds(1), nanoseconds(999), nanoseconds(123456789),
                              nanoseconds(3723000000001), nanoseconds(-42000)}) {
    auto back = parse_duration(format_duration(d));
    ASSERT_TRUE(back.ok()) << format_duration(d) << ": " << back.error();
    EXPECT_EQ(*back, d);
  }
}

}  // namespace
}  // namespace vc::go
