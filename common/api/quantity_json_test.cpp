#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/api/quantity.h"

namespace vc::api {
namespace {

using nlohmann::json;

TEST(QuantityJson, EncodesAsTheKubernetesString) {
  EXPECT_EQ(json(Quantity::must_parse("1.5Gi")).dump(), R"("1536Mi")");
  EXPECT_EQ(json(Quantity::must_parse("1.441")).dump(), R"("1.441")");
  EXPECT_EQ(json(Quantity()).dump(), R"("0")");
  EXPECT_EQ(json(Quantity::from_milli(1441)).dump(), R"("1441m")");
}

TEST(QuantityJson, DecodesStringsAndTrimsWhiteSpaceLikeGo) {
  EXPECT_EQ(json(" 1").get<Quantity>().to_string(), "1");
  EXPECT_EQ(json("1 ").get<Quantity>().to_string(), "1");
  EXPECT_EQ(json("\t100m\n").get<Quantity>().to_string(), "100m");
  // U+00A0 and U+3000 are white space to Go's strings.TrimSpace.
  EXPECT_EQ(json("\xC2\xA0"
                 "2Gi"
                 "\xE3\x80\x80")
                .get<Quantity>()
                .to_string(),
            "2Gi");
  // A lone invalid byte is not white space.
  EXPECT_FALSE(quantity_from_json(json("1\xC2")).ok());
}

TEST(QuantityJson, DecodesNumbersFromTheirText) {
  EXPECT_EQ(json::parse("1").get<Quantity>().to_string(), "1");
  EXPECT_EQ(json::parse("10").get<Quantity>().to_string(), "10");
  EXPECT_EQ(json::parse("-1").get<Quantity>().to_string(), "-1");
  EXPECT_EQ(json::parse(" -1").get<Quantity>().to_string(), "-1");
  EXPECT_EQ(json::parse("18446744073709551615").get<Quantity>().to_string(),
            "18446744073709551615");
  EXPECT_EQ(json::parse("1.5").get<Quantity>().to_string(), "1500m");
  EXPECT_EQ(json::parse("0.25").get<Quantity>().to_string(), "250m");
  EXPECT_EQ(json::parse("1e21").get<Quantity>().to_string(), "1e21");
}

TEST(QuantityJson, NullIsZero) {
  auto q = quantity_from_json(json(nullptr));
  ASSERT_TRUE(q.ok());
  EXPECT_TRUE(q->is_zero());
}

TEST(QuantityJson, InvalidValuesReportTheParseError) {
  auto bad = quantity_from_json(json("1.5Gii"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), kQuantitySuffixError);
  auto wrong_type = quantity_from_json(json::parse("true"));
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_EQ(wrong_type.error(), "quantities must be JSON strings or numbers, got boolean");
  EXPECT_FALSE(quantity_from_json(json::parse(R"({"a":1})")).ok());
  EXPECT_FALSE(quantity_from_json(json("")).ok());
}

TEST(QuantityJson, GetThrowsAJsonExceptionNamingTheProblem) {
  try {
    (void)json("abc").get<Quantity>();
    FAIL() << "abc decoded";
  } catch (const json::exception& e) {
    EXPECT_NE(std::string(e.what()).find("quantities must match"), std::string::npos) << e.what();
  }
}

TEST(QuantityJson, MapsOfQuantitiesRoundTripThroughJson) {
  const json in = json::parse(R"({"cpu":"1.5","memory":"1024Mi","nvidia.com/gpu":2})");
  const auto resources = in.get<std::map<std::string, Quantity>>();
  EXPECT_EQ(json(resources).dump(), R"({"cpu":"1500m","memory":"1Gi","nvidia.com/gpu":"2"})");
}

TEST(QuantityJson, ReencodingIsByteStable) {
  for (const char* text : {"1", "-1", "1Ki", "1024Mi", "1000M", "1e3", "0.1", "1.441", "1.000001",
                           "1.5", "9223372036854775808", "100E", "1000E", "8Ei", "-9.5Gi"}) {
    const json first = Quantity::must_parse(text);
    const json second = first.get<Quantity>();
    EXPECT_EQ(first.dump(), second.dump()) << text;
  }
}

}  // namespace
}  // namespace vc::api
