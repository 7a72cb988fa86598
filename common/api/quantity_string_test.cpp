// Kubernetes' String() and canonical forms for parsed quantities.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/api/quantity.h"

namespace vc::api {
namespace {

constexpr auto kDSI = QuantityFormat::DecimalSI;
constexpr auto kBSI = QuantityFormat::BinarySI;
constexpr auto kDExp = QuantityFormat::DecimalExponent;

Quantity parse_ok(std::string_view text) {
  auto q = Quantity::parse(text);
  EXPECT_TRUE(q.ok()) << "'" << text << "': " << q.error();
  return q.ok() ? *q : Quantity();
}

struct StringCase {
  std::string input;
  std::string string;     // Kubernetes String()
  std::string canonical;  // the computed canonical form
};

TEST(QuantityString, MatchesKubernetesStringAndCanonicalForms) {
  const std::vector<StringCase> cases = {
      // Canonical inputs come back unchanged (TestQuantityString's "expect" column).
      {"1Gi", "1Gi", "1Gi"},
      {"300Mi", "300Mi", "300Mi"},
      {"6Ki", "6Ki", "6Ki"},
      {"1001Gi", "1001Gi", "1001Gi"},
      {"1Ti", "1Ti", "1Ti"},
      {"5", "5", "5"},
      {"500m", "500m", "500m"},
      {"1G", "1G", "1G"},
      {"1m", "1m", "1m"},
      {"80m", "80m", "80m"},
      {"1080m", "1080m", "1080m"},
      {"300M", "300M", "300M"},
      {"1T", "1T", "1T"},
      {"1E", "1E", "1E"},
      {"1e21", "1e21", "1e21"},
      {"1234567M", "1234567M", "1234567M"},
      {"3k", "3k", "3k"},
      {"1025", "1025", "1025"},
      {"1e9", "1e9", "1e9"},
      {"1e-3", "1e-3", "1e-3"},
      {"1e-9", "1e-9", "1e-9"},
      {"80e-3", "80e-3", "80e-3"},
      {"300e6", "300e6", "300e6"},
      {"1n", "1n", "1n"},
      {"80n", "80n", "80n"},
      {"1080n", "1080n", "1080n"},
      {"1u", "1u", "1u"},
      {"1080u", "1080u", "1080u"},
      // Alternates canonicalize (the "alternate" column and TestQuantityParseEmit).
      {"1024Mi", "1Gi", "1Gi"},
      {"307200Ki", "300Mi", "300Mi"},
      {"1025024Mi", "1001Gi", "1001Gi"},
      {"1024Gi", "1Ti", "1Ti"},
      {"5000m", "5", "5"},
      {"0.5", "500m", "500m"},
      {"1000M", "1G", "1G"},
      {"0.001T", "1G", "1G"},
      {"1000u", "1m", "1m"},
      {"1.08", "1080m", "1080m"},
      {"1080000000n", "1080m", "1080m"},
      {"1000E", "1e21", "1e21"},
      {"5000E", "5e21", "5e21"},
      {"1000000E", "1e24", "1e24"},
      {".001e12", "1e9", "1e9"},
      {"0.001e0", "1e-3", "1e-3"},
      {"1000e-12", "1e-9", "1e-9"},
      {"00", "0", "0"},
      {".001Ki", "1024m", "1024m"},
      {".000001Ki", "1024u", "1024u"},
      {".000000001Ki", "1024n", "1024n"},
      {".000000000001Ki", "2n", "2n"},
      // Everyday spellings.
      {"100m", "100m", "100m"},
      {"1.5Gi", "1536Mi", "1536Mi"},
      {"1e3", "1e3", "1e3"},
      {"0.1", "100m", "100m"},
      {"1000m", "1", "1"},
      {"12e6", "12e6", "12e6"},
      {"0.0000000001", "1n", "1n"},
      {"1.5", "1500m", "1500m"},
      {"-100m", "-100m", "-100m"},
      {"1Ki", "1Ki", "1Ki"},
      {"5Mi", "5Mi", "5Mi"},
      {"0", "0", "0"},
      {"7Ei", "7Ei", "7Ei"},
      {".5", "500m", "500m"},
      {"-1.5Gi", "-1536Mi", "-1536Mi"},
      {"1023Ki", "1023Ki", "1023Ki"},
      {"2048Ki", "2Mi", "2Mi"},
      {"1.5Ki", "1536", "1536"},
      {"0.5Ki", "512", "512"},  // below 1024 units BinarySI prints as DecimalSI
      {"1.1Ki", "1126400m", "1126400m"},
      {"1e0", "1e0", "1"},
      {"1.5e0", "1500e-3", "1500e-3"},
      {"1e1", "10", "10"},
      {"1e2", "100", "100"},
      {"1e4", "10e3", "10e3"},
      {"1e5", "100e3", "100e3"},
      {"12e-1", "1200e-3", "1200e-3"},
      // Kubernetes keeps these inputs verbatim (its ParseQuantity caches them).
      {"1.", "1.", "1"},
      {"1.G", "1.G", "1G"},
      {"+1", "+1", "1"},
      {"01", "01", "1"},
      {"1E3", "1E3", "1e3"},
      {"1e+3", "1e+3", "1e3"},
      {"1.441", "1.441", "1441m"},
      {"1.000001", "1.000001", "1000001u"},
      {"1.000000001", "1.000000001", "1000000001n"},
      {"+1Ki", "+1Ki", "1Ki"},
      {"1.Ki", "1.Ki", "1Ki"},
      {"1.500", "1.500", "1500m"},
      // apimachinery's serialization golden rows.
      {"-1", "-1", "-1"},
      {"0.000000000000001", "1n", "1n"},
      {"9223372036854775807", "9223372036854775807", "9223372036854775807"},
      {"9223372036854775808", "9223372036854775808", "9223372036854775808"},
      {"18446744073709551616", "18446744073709551616", "18446744073709551616"},
      {"100E", "100E", "100E"},
      {"8Ei", "9223372036854775807", "9223372036854775807"},
      {"-20Ei", "-9223372036854775807", "-9223372036854775807"},
      {"-9.5Gi", "-9728Mi", "-9728Mi"},
      {"-9.5000000001Gi", "-10200547328107374183n", "-10200547328107374183n"},
  };
  for (const auto& c : cases) {
    const Quantity q = parse_ok(c.input);
    EXPECT_EQ(q.to_string(), c.string) << "input " << c.input;
    EXPECT_EQ(q.canonical_string(), c.canonical) << "input " << c.input;
  }
}

TEST(QuantityString, NegativeValuesPrintWithLeadingMinus) {
  for (const char* text : {"1Gi", "300Mi", "1G", "1080m", "1e9", "80e-3", "1n", "1e21"}) {
    Quantity q = Quantity::must_parse(text);
    q.neg();
    EXPECT_EQ(q.to_string(), std::string("-") + text);
  }
  EXPECT_EQ((-Quantity::must_parse("0")).to_string(), "0");
  EXPECT_EQ(Quantity::must_parse("-0").to_string(), "0");
}

TEST(QuantityString, FormatNamesMatchKubernetes) {
  EXPECT_STREQ(to_string(kDSI), "DecimalSI");
  EXPECT_STREQ(to_string(kBSI), "BinarySI");
  EXPECT_STREQ(to_string(kDExp), "DecimalExponent");
}

TEST(QuantityString, BinaryValuesBeyondEiStayInEi) {
  Quantity q = Quantity::from_int(1LL << 60, kBSI);
  ASSERT_TRUE(q.mul(1024));
  EXPECT_EQ(q.to_string(), "1024Ei");
}

}  // namespace
}  // namespace vc::api
