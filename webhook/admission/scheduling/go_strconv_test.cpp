#include "webhook/admission/scheduling/go_strconv.h"

#include <cmath>

#include <gtest/gtest.h>

namespace vc::webhook::scheduling {
namespace {

double parse_ok(std::string_view s) {
  auto v = go_parse_float(s);
  EXPECT_TRUE(v.ok()) << s << ": " << v.error();
  return v.ok() ? *v : -12345;
}

std::string parse_error(std::string_view s) {
  auto v = go_parse_float(s);
  EXPECT_FALSE(v.ok()) << s << " parsed as " << (v.ok() ? *v : 0);
  return v.error();
}

TEST(GoParseFloat, AcceptsGoFloatSyntax) {
  EXPECT_EQ(parse_ok("1"), 1);
  EXPECT_EQ(parse_ok("1."), 1);
  EXPECT_EQ(parse_ok(".5"), 0.5);
  EXPECT_EQ(parse_ok("+2.5e1"), 25);
  EXPECT_EQ(parse_ok("1_000"), 1000);
  EXPECT_EQ(parse_ok("0x1p3"), 8);
  EXPECT_EQ(parse_ok("0x_1p0"), 1);
  EXPECT_EQ(parse_ok("1e-400"), 0);  // underflow is not an error
}

TEST(GoParseFloat, AcceptsInfinityAndNanSpellings) {
  EXPECT_TRUE(std::isinf(parse_ok("Inf")));
  EXPECT_TRUE(std::isinf(parse_ok("+infinity")));
  EXPECT_LT(parse_ok("-inf"), 0);
  EXPECT_TRUE(std::isnan(parse_ok("NaN")));
}

TEST(GoParseFloat, RejectsWithGoMessages) {
  EXPECT_EQ(parse_error("a"), "strconv.ParseFloat: parsing \"a\": invalid syntax");
  EXPECT_EQ(parse_error(""), "strconv.ParseFloat: parsing \"\": invalid syntax");
  for (const char* bad : {".", "1e", "0x1", "1__0", "_1", "0b1", "+nan", "infin", "1 ", "1.2.3"}) {
    EXPECT_EQ(parse_error(bad),
              std::string("strconv.ParseFloat: parsing \"") + bad + "\": invalid syntax");
  }
  EXPECT_EQ(parse_error("1e400"), "strconv.ParseFloat: parsing \"1e400\": value out of range");
  EXPECT_EQ(parse_error("-0x1p2000"),
            "strconv.ParseFloat: parsing \"-0x1p2000\": value out of range");
}

}  // namespace
}  // namespace vc::webhook::scheduling
