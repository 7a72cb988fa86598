// Arithmetic, comparison and round-trip properties of Quantity.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "common/api/quantity.h"

namespace vc::api {
namespace {

constexpr auto kDSI = QuantityFormat::DecimalSI;
constexpr auto kBSI = QuantityFormat::BinarySI;

Quantity q(std::string_view text) {
  return Quantity::must_parse(text);
}

TEST(QuantityCompare, OrdersByValueIgnoringFormat) {
  EXPECT_EQ(q("0").compare(q("0")), 0);
  EXPECT_EQ(q("100m").compare(q("50m")), 1);
  EXPECT_EQ(q("50m").compare(q("100m")), -1);
  EXPECT_EQ(q("10000T").compare(q("100Gi")), 1);
  EXPECT_TRUE(q("1Ki") == q("1024"));
  EXPECT_TRUE(q("1e3") == q("1k"));
  EXPECT_TRUE(q("1.441") == q("1441m"));
  EXPECT_TRUE(q("-1") < q("0"));
  EXPECT_TRUE(q("999m") < q("1"));
  EXPECT_TRUE(q("1n") > q("0"));
  EXPECT_TRUE(q("1Gi") >= q("1G"));
  EXPECT_TRUE(q("9223372036854775808") > q("8Ei")) << "8Ei is capped at 2^63-1";
  EXPECT_EQ(q("1Gi") <=> q("1024Mi"), std::weak_ordering::equivalent);
}

TEST(QuantityAdd, SumsExactlyAndKeepsTheReceiverFormat) {
  Quantity a = Quantity::from_int(10, kDSI);
  EXPECT_TRUE(a.add(Quantity::from_int(10, kDSI)));
  EXPECT_EQ(a.to_string(), "20");

  Quantity b = Quantity::from_int(10, kDSI);
  b.add(Quantity::from_int(1, kBSI));
  EXPECT_EQ(b.value(), 11);
  EXPECT_EQ(b.format(), kDSI);

  Quantity c = Quantity::from_int(10, kBSI);
  c.add(Quantity::from_int(1, kDSI));
  EXPECT_EQ(c.value(), 11);
  EXPECT_EQ(c.format(), kBSI);

  EXPECT_EQ((q("100m") + q("1.9")).to_string(), "2");
  EXPECT_EQ((q("0.1") + q("0.2")).to_string(), "300m");
  EXPECT_EQ((q("1Gi") + q("512Mi")).to_string(), "1536Mi");
  EXPECT_EQ((q("1n") + q("1E")).to_string(), "1000000000000000000000000001n");
}

TEST(QuantityAdd, ZeroReceiverAdoptsTheOtherFormatSoSuffixesSurvive) {
  for (const char* text : {"100m", "1Gi"}) {
    Quantity zero = q("0");
    zero.add(q(text));
    EXPECT_EQ(zero.to_string(), text);
    Quantity value = q(text);
    value.add(q("0"));
    EXPECT_EQ(value.to_string(), text);
  }
}

TEST(QuantityAdd, ArithmeticDropsTheVerbatimInput) {
  Quantity a = q("1.441");
  EXPECT_EQ(a.to_string(), "1.441");
  a.add(q("0"));
  EXPECT_EQ(a.to_string(), "1441m");
}

TEST(QuantitySub, SubtractsAndZeroReceiverAdoptsFormat) {
  EXPECT_TRUE((q("10") - q("1e1")).is_zero());
  Quantity a = Quantity::from_int(10, kDSI);
  a.sub(Quantity::from_int(1, kBSI));
  EXPECT_EQ(a.value(), 9);
  EXPECT_EQ(a.format(), kDSI);

  Quantity zero;
  zero.sub(q("1Gi"));
  EXPECT_EQ(zero.to_string(), "-1Gi");
  EXPECT_EQ(zero.format(), kBSI);

  EXPECT_EQ((q("500m") - q("1")).to_string(), "-500m");
  EXPECT_EQ((q("1Gi") - q("1")).to_string(), "1073741823");
}

TEST(QuantityMul, MultipliesByReplicaCounts) {
  Quantity a = q("250m");
  EXPECT_TRUE(a.mul(4));
  EXPECT_EQ(a.to_string(), "1");
  EXPECT_EQ((q("1Gi") * 3).to_string(), "3Gi");
  EXPECT_EQ((q("10") * -10).to_string(), "-100");
  EXPECT_EQ((q("-50") * -50).to_string(), "2500");
  EXPECT_TRUE((q("50") * 0).is_zero());
  EXPECT_EQ((Quantity::from_int(INT64_MAX) * 2).to_string(), "18446744073709551614");
  EXPECT_EQ((Quantity::from_int(INT64_MIN) * -1).to_string(), "9223372036854775808");
}

TEST(QuantitySaturation, OverflowSaturatesAndReportsIt) {
  Quantity big = Quantity::from_nanos(Quantity::kMaxNanos);
  EXPECT_FALSE(big.add(q("1n")));
  EXPECT_EQ(big.nanos() == Quantity::kMaxNanos, true);
  Quantity low = Quantity::from_nanos(-Quantity::kMaxNanos);
  EXPECT_FALSE(low.sub(q("1")));
  EXPECT_EQ(low.nanos() == -Quantity::kMaxNanos, true);
  Quantity m = q("1e28");
  EXPECT_FALSE(m.mul(INT64_MAX));
  EXPECT_EQ(m.nanos() == Quantity::kMaxNanos, true);
  Quantity n = q("1e28");
  EXPECT_FALSE(n.mul(INT64_MIN));
  EXPECT_EQ(n.nanos() == -Quantity::kMaxNanos, true);
  Quantity fine = q("1e20");
  EXPECT_TRUE(fine.mul(1000000));
  EXPECT_EQ(fine.to_string(), "100e24");
}

TEST(QuantityNeg, NegatesWithoutTouchingTheSource) {
  const Quantity a = q("9.01");
  Quantity b = a;
  b.neg();
  EXPECT_NE(a, b);
  EXPECT_EQ(b.to_string(), "-9010m");
  EXPECT_EQ((-q("-10")).to_string(), "10");
  EXPECT_EQ((-q("10Ki")).format(), kBSI);
  EXPECT_EQ(a.sign(), 1);
  EXPECT_EQ(b.sign(), -1);
  EXPECT_EQ(Quantity().sign(), 0);
}

TEST(QuantityProperties, AddThenSubtractCancelsAcrossScales) {
  std::mt19937_64 rng(42);
  std::vector<Quantity> added;
  Quantity sum;
  for (int i = 0; i < 200; ++i) {
    const auto value = static_cast<std::int64_t>(rng() >> 1);
    const int scale = static_cast<int>(rng() % 15) - 9;  // sums stay in range
    added.push_back(Quantity::from_scaled(value, scale));
    ASSERT_TRUE(sum.add(added.back()));
  }
  for (const auto& a : added) ASSERT_TRUE(sum.sub(a));
  EXPECT_TRUE(sum.is_zero()) << sum.to_string();
}

TEST(QuantityProperties, PrintedFormParsesBackToTheSameValueAndFormat) {
  std::mt19937_64 rng(7);
  const QuantityFormat formats[] = {QuantityFormat::DecimalExponent, kBSI, kDSI};
  for (int i = 0; i < 5000; ++i) {
    const auto format = formats[rng() % 3];
    Quantity original;
    switch (rng() % 3) {
      case 0:
        original = Quantity::from_int(static_cast<std::int64_t>(rng() % 1024) << (10 * (rng() % 6)),
                                      format);
        break;
      case 1:
        original = Quantity::from_scaled(static_cast<std::int64_t>(rng() >> 1),
                                         static_cast<int>(rng() % 21) - 9);
        break;
      default:
        original = Quantity::from_milli(static_cast<std::int64_t>(rng()), format);
    }
    if (rng() % 2 == 0) original.neg();
    const std::string text = original.to_string();
    auto parsed = Quantity::parse(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error();
    EXPECT_EQ(*parsed, original) << text;
    EXPECT_EQ(parsed->to_string(), text) << "printing is not stable for " << text;
  }
}

}  // namespace
}  // namespace vc::api
