#include "common/api/quantity.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace vc::api {
namespace {

using Nanos = Quantity::Nanos;
constexpr auto kDSI = QuantityFormat::DecimalSI;
constexpr auto kBSI = QuantityFormat::BinarySI;
constexpr auto kDExp = QuantityFormat::DecimalExponent;

// mantissa * 10^exponent in nano-units (exponent >= -9), like apimachinery's decQuantity.
Nanos dec(std::int64_t mantissa, int exponent) {
  Nanos v = mantissa;
  for (int i = -9; i < exponent; ++i) v *= 10;
  return v;
}

std::string str(Nanos v) {
  if (v == 0) return "0";
  std::string out;
  const bool negative = v < 0;
  unsigned __int128 m = negative ? -static_cast<unsigned __int128>(v) : v;
  while (m != 0) {
    out.insert(out.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  }
  return negative ? "-" + out : out;
}

Quantity parse_ok(std::string_view text) {
  auto q = Quantity::parse(text);
  EXPECT_TRUE(q.ok()) << "'" << text << "': " << q.error();
  return q.ok() ? *q : Quantity();
}

const Nanos kMaxInt64Units = dec(INT64_MAX, 0);

struct ValueCase {
  std::string input;
  Nanos nanos;
  QuantityFormat format;
};

// apimachinery's TestQuantityParse table, expressed in nano-units.
std::vector<ValueCase> parse_value_cases() {
  return {
      {"0", 0, kDSI},
      {"0n", 0, kDSI},
      {"0u", 0, kDSI},
      {"0m", 0, kDSI},
      {"0Ki", 0, kBSI},
      {"0k", 0, kDSI},
      {"0Mi", 0, kBSI},
      {"0M", 0, kDSI},
      {"0Gi", 0, kBSI},
      {"0G", 0, kDSI},
      {"0Ti", 0, kBSI},
      {"0T", 0, kDSI},
      {"1", dec(1, 0), kDSI},
      {"1Ki", dec(1024, 0), kBSI},
      {"8Ki", dec(8 * 1024, 0), kBSI},
      {"7Mi", dec(7 * 1024 * 1024, 0), kBSI},
      {"6Gi", dec(6LL << 30, 0), kBSI},
      {"5Ti", dec(5LL << 40, 0), kBSI},
      {"4Pi", dec(4LL << 50, 0), kBSI},
      {"3Ei", dec(3LL << 60, 0), kBSI},
      {"10Ti", dec(10LL << 40, 0), kBSI},
      {"100Ti", dec(100LL << 40, 0), kBSI},
      {"5n", dec(5, -9), kDSI},
      {"4u", dec(4, -6), kDSI},
      {"3m", dec(3, -3), kDSI},
      {"9", dec(9, 0), kDSI},
      {"8k", dec(8, 3), kDSI},
      {"50k", dec(5, 4), kDSI},
      {"7M", dec(7, 6), kDSI},
      {"6G", dec(6, 9), kDSI},
      {"5T", dec(5, 12), kDSI},
      {"40T", dec(4, 13), kDSI},
      {"300T", dec(3, 14), kDSI},
      {"2P", dec(2, 15), kDSI},
      {"1E", dec(1, 18), kDSI},
      {"1E-3", dec(1, -3), kDExp},
      {"1e3", dec(1, 3), kDExp},
      {"1E6", dec(1, 6), kDExp},
      {"1e9", dec(1, 9), kDExp},
      {"1E12", dec(1, 12), kDExp},
      {"1e15", dec(1, 15), kDExp},
      {"1E18", dec(1, 18), kDExp},
      {"1e14", dec(1, 14), kDExp},
      {"1e13", dec(1, 13), kDExp},
      {"100.035k", dec(100035, 0), kDSI},
      {"0.001", dec(1, -3), kDSI},
      {"0.0005k", dec(5, -1), kDSI},
      {"0.005", dec(5, -3), kDSI},
      {"0.05", dec(5, -2), kDSI},
      {"0.5", dec(5, -1), kDSI},
      {"0.00050k", dec(5, -1), kDSI},
      {"0.00500", dec(5, -3), kDSI},
      {"0.05000", dec(5, -2), kDSI},
      {"0.50000", dec(5, -1), kDSI},
      {"0.5e0", dec(5, -1), kDExp},
      {"0.5e-1", dec(5, -2), kDExp},
      {"0.5e-2", dec(5, -3), kDExp},
      {"10.035M", dec(10035, 3), kDSI},
      {"1.2e3", dec(12, 2), kDExp},
      {"1.3E+6", dec(13, 5), kDExp},
      {"1.40e9", dec(14, 8), kDExp},
      {"1.53E12", dec(153, 10), kDExp},
      {"1.6e15", dec(16, 14), kDExp},
      {"1.7E18", dec(17, 17), kDExp},
      {"9.01", dec(901, -2), kDSI},
      {"8.1k", dec(81, 2), kDSI},
      {"7.123456M", dec(7123456, 0), kDSI},
      {"6.987654321G", dec(6987654321, 0), kDSI},
      {"5.444T", dec(5444, 9), kDSI},
      {"40.1T", dec(401, 11), kDSI},
      {"300.2T", dec(3002, 11), kDSI},
      {"2.5P", dec(25, 14), kDSI},
      {"1.01E", dec(101, 16), kDSI},
      // Things that saturate or round up to a whole nano.
      {"3.001n", dec(4, -9), kDSI},
      {"1.1E-9", dec(2, -9), kDExp},
      {"0.0000000001", dec(1, -9), kDSI},
      {"0.0000000005", dec(1, -9), kDSI},
      {"0.00000000050", dec(1, -9), kDSI},
      {"0.5e-9", dec(1, -9), kDExp},
      {"0.9n", dec(1, -9), kDSI},
      {"0.00000012345", dec(124, -9), kDSI},
      {"0.00000012354", dec(124, -9), kDSI},
      {"9Ei", kMaxInt64Units, kBSI},
      {"9223372036854775807Ki", kMaxInt64Units, kBSI},
      {"12E", dec(12, 18), kDSI},
      // Fractional binary values.
      {"100.035Ki", dec(10243584, -2), kBSI},
      {"0.5Mi", dec(512 * 1024, 0), kBSI},
      {"0.05Gi", dec(536870912, -1), kBSI},
      {"0.025Ti", dec(274877906944, -1), kBSI},
      // Things written by trolls.
      {"0.000000000001Ki", dec(2, -9), kDSI},  // rounds up and changes format
      {".001", dec(1, -3), kDSI},
      {".0001k", dec(100, -3), kDSI},
      {"1.", dec(1, 0), kDSI},
      {"1.G", dec(1, 9), kDSI},
      {".", 0, kDSI},
      {"-.", 0, kDSI},
      {"+", 0, kDSI},
      {"Ki", 0, kBSI},
      {"m", 0, kDSI},
  };
}

TEST(QuantityParse, KubernetesTableValuesAndFormats) {
  for (const auto& c : parse_value_cases()) {
    const Quantity q = parse_ok(c.input);
    EXPECT_EQ(str(q.nanos()), str(c.nanos)) << c.input;
    EXPECT_EQ(to_string(q.format()), std::string(to_string(c.format))) << c.input;
  }
}

TEST(QuantityParse, LeadingMinusNegatesAndKeepsFormat) {
  for (const auto& c : parse_value_cases()) {
    if (c.input[0] == '-' || c.input[0] == '+') continue;
    const Quantity q = parse_ok("-" + c.input);
    EXPECT_EQ(str(q.nanos()), str(-c.nanos)) << c.input;
    EXPECT_EQ(q.format(), c.format) << c.input;
  }
}

TEST(QuantityParse, LeadingPlusKeepsValueAndFormat) {
  for (const auto& c : parse_value_cases()) {
    if (c.input[0] == '-' || c.input[0] == '+') continue;
    const Quantity q = parse_ok("+" + c.input);
    EXPECT_EQ(str(q.nanos()), str(c.nanos)) << c.input;
    EXPECT_EQ(q.format(), c.format) << c.input;
  }
}

TEST(QuantityParse, InvalidInputsReportKubernetesMessages) {
  const std::string format(kQuantityFormatError), suffix(kQuantitySuffixError),
      numeric(kQuantityNumericError);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", format},
      {"abc", format},
      {"1 Gi", format},
      {" 1", format},
      {"1 ", format},
      {"1.1.M", format},
      {"1+1.0M", format},
      {"aoeu", format},
      {"1e3.5", format},
      {"1e+-3", format},
      {"1.5Gii", suffix},
      {"1e", suffix},
      {"--1", suffix},
      {"0.1mi", suffix},
      {"0.1am", format},
      {".5i", suffix},
      {"1i", suffix},
      {"-3.01i", suffix},
      {"-3.01e-", suffix},
      {"1K", suffix},
      {"1ee3", suffix},
      {"1Mi3", suffix},
      {"1e99999999999999999999", suffix},
      {"Ei", numeric},
      {"-.Pi", numeric},
      {"+Ei", numeric},
  };
  for (const auto& [input, message] : cases) {
    auto q = Quantity::parse(input);
    ASSERT_FALSE(q.ok()) << "'" << input << "' parsed as " << q->to_string();
    EXPECT_EQ(q.error(), message) << "'" << input << "'";
  }
}

TEST(QuantityParse, FormatErrorQuotesTheKubernetesRegularExpression) {
  auto q = parse_quantity("1 Gi");
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.error(),
            "quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
}

TEST(QuantityParse, ValuesBeyondTheRepresentationAreRejectedNotWrapped) {
  auto big = Quantity::parse("1e100");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error(), kQuantityTooLargeError);
  EXPECT_FALSE(Quantity::parse("-200000000000000000000000000000").ok());
  // Just below the bound still parses exactly.
  const Quantity q = parse_ok("100000000000000000000000000000");  // 1e29
  EXPECT_EQ(q.to_string(), "100e27");
}

TEST(QuantityParse, ExponentIsNarrowedToInt32LikeKubernetes) {
  // 2^32 + 3 narrows to 3; the input is one Kubernetes keeps verbatim.
  EXPECT_EQ(parse_ok("1e4294967299").to_string(), "1e4294967299");
  EXPECT_EQ(parse_ok("1e4294967299").canonical_string(), "1e3");
  // -2^31 is a tiny value that rounds up to one nano-unit.
  EXPECT_EQ(parse_ok("1e-2147483648").to_string(), "1e-9");
}

TEST(QuantityParse, LongFractionsRoundUpExactly) {
  EXPECT_EQ(parse_ok("1.0000000000000000000000000000000000000000001").to_string(), "1000000001n");
  EXPECT_EQ(parse_ok("1.0000000000000000000000000000000000000000000").to_string(), "1");
  EXPECT_EQ(parse_ok("0.000000000000000000000000000000000000000000000000001Ei").to_string(), "1n");
  EXPECT_EQ(parse_ok("0.000000000000000000001Ei").to_string(), "1152922n");
  EXPECT_EQ(parse_ok("1.00000000000000000000000000000000000000001Ki").to_string(),
            "1024000000001n");
  // Leading zeros do not count as digits, so Kubernetes keeps this input verbatim.
  EXPECT_EQ(parse_ok("00000000000000000000000000000000000000000000012").canonical_string(), "12");
}

TEST(QuantityConstruct, FromMilliMatchesKubernetes) {
  EXPECT_EQ(Quantity::from_milli(1).to_string(), "1m");
  EXPECT_EQ(Quantity::from_milli(1000).to_string(), "1");
  EXPECT_EQ(Quantity::from_milli(1234000).to_string(), "1234");
  EXPECT_EQ(Quantity::from_milli(1024, kBSI).to_string(), "1024m");
  EXPECT_EQ(Quantity::from_milli(1000000, kDExp).to_string(), "1e3");
  EXPECT_EQ(Quantity::from_milli(1024 * 1024, kBSI).to_string(), "1048576m");
  EXPECT_EQ(Quantity::from_milli(1441).to_string(), "1441m");
  EXPECT_EQ(Quantity::from_milli(1441).milli_value(), 1441);
}

TEST(QuantityConstruct, FromIntMatchesKubernetes) {
  EXPECT_EQ(Quantity::from_int(1).to_string(), "1");
  EXPECT_EQ(Quantity::from_int(1000).to_string(), "1k");
  EXPECT_EQ(Quantity::from_int(1234000).to_string(), "1234k");
  EXPECT_EQ(Quantity::from_int(1024, kBSI).to_string(), "1Ki");
  EXPECT_EQ(Quantity::from_int(1000000, kDExp).to_string(), "1e6");
  EXPECT_EQ(Quantity::from_int(1024 * 1024, kBSI).to_string(), "1Mi");
  EXPECT_EQ(Quantity::from_int(INT64_MIN).to_string(), "-9223372036854775808");
  for (std::int64_t v : {1LL, 1000LL, 1234000LL, 1024LL, 1048576LL}) {
    EXPECT_EQ(Quantity::must_parse(Quantity::from_int(v).to_string()).value(), v);
  }
}

TEST(QuantityConstruct, FromScaledMatchesKubernetes) {
  EXPECT_EQ(Quantity::from_scaled(1, -9).to_string(), "1n");
  EXPECT_EQ(Quantity::from_scaled(1000, -9).to_string(), "1u");
  EXPECT_EQ(Quantity::from_scaled(1, -6).to_string(), "1u");
  EXPECT_EQ(Quantity::from_scaled(1000, -6).to_string(), "1m");
  EXPECT_EQ(Quantity::from_scaled(1, -3).to_string(), "1m");
  EXPECT_EQ(Quantity::from_scaled(1000, -3).to_string(), "1");
  EXPECT_EQ(Quantity::from_scaled(0, -9).to_string(), "0");
  EXPECT_EQ(Quantity::from_scaled(1, 21).to_string(), "1e21");
  EXPECT_EQ(Quantity::from_scaled(INT64_MAX, 1).to_string(), "92233720368547758070");
  EXPECT_THROW(Quantity::from_scaled(1, -10), std::invalid_argument);
}

TEST(QuantityValue, ScaledValuesRoundAwayFromZero) {
  EXPECT_EQ(Quantity::must_parse("1Mi").value(), 1024 * 1024);
  EXPECT_EQ(Quantity::must_parse("100m").milli_value(), 100);
  EXPECT_EQ(Quantity::must_parse("100m").value(), 1);
  EXPECT_EQ(Quantity::must_parse("1.5").value(), 2);
  EXPECT_EQ(Quantity::must_parse("-1.5").value(), -2);
  EXPECT_EQ(Quantity::must_parse("1n").milli_value(), 1);
  EXPECT_EQ(Quantity::must_parse("-1n").milli_value(), -1);
  EXPECT_EQ(Quantity::must_parse("1500u").milli_value(), 2);
  EXPECT_EQ(Quantity::must_parse("2").milli_value(), 2000);
  EXPECT_EQ(Quantity::must_parse("0").value(), 0);
  // TestScaledValue: 1 at one scale read at another.
  EXPECT_EQ(Quantity::from_scaled(1, -9).scaled_value(-9), 1);
  EXPECT_EQ(Quantity::from_scaled(1, -9).scaled_value(0), 1);
  EXPECT_EQ(Quantity::from_scaled(1, -6).scaled_value(-9), 1000);
  EXPECT_EQ(Quantity::from_scaled(1, 0).scaled_value(-9), 1000000000);
  EXPECT_EQ(Quantity::from_scaled(1, 2).scaled_value(-2), 10000);
  EXPECT_EQ(Quantity::from_scaled(1, -9).scaled_value(60), 1);
  EXPECT_EQ(Quantity::from_scaled(1, -3).scaled_value(-12), 1000000000);
}

TEST(QuantityValue, ScaledValuesSaturateAtInt64) {
  EXPECT_EQ(Quantity::must_parse("100E").value(), INT64_MAX);
  EXPECT_EQ(Quantity::must_parse("-100E").value(), INT64_MIN);
  EXPECT_EQ(Quantity::must_parse("9223372036854775807").milli_value(), INT64_MAX);
}

TEST(QuantityValue, ApproximateDouble) {
  EXPECT_DOUBLE_EQ(Quantity::must_parse("2Ki").as_approximate_double(), 2048.0);
  EXPECT_DOUBLE_EQ(Quantity::must_parse("1.1Ki").as_approximate_double(), 1126.4);
  EXPECT_DOUBLE_EQ(Quantity::must_parse("-250m").as_approximate_double(), -0.25);
}

TEST(QuantityMustParse, ThrowsNamingTheInput) {
  try {
    Quantity::must_parse("Non-Numeric");
    FAIL() << "must_parse accepted Non-Numeric";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("Non-Numeric"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace vc::api
