// The colocation annotation's JSON as Go writes and reads it: json.Marshal's member order and
// omitempty, json.Unmarshal's tolerance (case, unknown members, null) and its errors.
#include "controllers/colocation/configuration.h"

#include <gtest/gtest.h>

namespace vc::controllers::colocation {
namespace {

Configuration qos(std::int64_t high, std::int64_t low, std::int64_t min) {
  return {.memory_qos = MemoryQos{.high_ratio = high, .low_ratio = low, .min_ratio = min}};
}

TEST(EncodeConfiguration, WritesWhatGoMarshalWrites) {
  EXPECT_EQ(encode_configuration({}), "{}");
  EXPECT_EQ(encode_configuration(qos(100, 0, 0)), R"({"memoryQos":{"highRatio":100}})");
  EXPECT_EQ(encode_configuration(qos(80, 20, 10)),
            R"({"memoryQos":{"highRatio":80,"lowRatio":20,"minRatio":10}})");
  EXPECT_EQ(encode_configuration(qos(0, 0, 5)), R"({"memoryQos":{"minRatio":5}})");
  EXPECT_EQ(encode_configuration(qos(0, 0, 0)), R"({"memoryQos":{}})");
}

TEST(DecodeConfiguration, ReadsWhatGoUnmarshalReads) {
  EXPECT_EQ(decode_configuration("{}"), Configuration{});
  EXPECT_EQ(decode_configuration("null"), Configuration{});
  EXPECT_EQ(decode_configuration(R"({"memoryQos":null})"), Configuration{});
  EXPECT_EQ(decode_configuration(R"({"memoryQos":{}})"), qos(0, 0, 0));
  EXPECT_EQ(decode_configuration(R"( { "minRatio": 3, "memoryQos" : {"lowRatio":2,
                                     "highRatio":90, "extra":[1]} } )"),
            qos(90, 2, 0));
  EXPECT_EQ(decode_configuration(R"({"MEMORYQOS":{"HighRatio":7,"minratio":null}})"), qos(7, 0, 0));
  // Go's case fold also maps U+017F (long s) to S.
  EXPECT_EQ(decode_configuration("{\"memoryQo\xC5\xBF\":{\"highRatio\":1}}"), qos(1, 0, 0));
  EXPECT_EQ(decode_configuration(R"({"memory_qos":{"highRatio":1}})"), Configuration{});
}

TEST(DecodeConfiguration, RefusesWhatGoUnmarshalRefuses) {
  for (const char* text :
       {"", "{", "[]", "\"{}\"", "7", R"({"memoryQos":[]})", R"({"memoryQos":"x"})",
        R"({"memoryQos":{"highRatio":"90"}})", R"({"memoryQos":{"highRatio":1.5}})",
        R"({"memoryQos":{"lowRatio":1e2}})", R"({"memoryQos":{"minRatio":true}})",
        R"({"memoryQos":{"minRatio":9223372036854775808}})"}) {
    EXPECT_EQ(decode_configuration(text), std::nullopt) << text;
  }
  EXPECT_EQ(decode_configuration(R"({"memoryQos":{"minRatio":-9223372036854775808}})"),
            qos(0, 0, INT64_MIN));
}

TEST(ConfigurationFromSpec, ReadsTheStoredSpec) {
  EXPECT_EQ(configuration_from_spec(nullptr), Configuration{});
  EXPECT_EQ(configuration_from_spec({{"selector", nlohmann::json::object()}}), Configuration{});
  EXPECT_EQ(configuration_from_spec({{"memoryQos", {{"highRatio", 100}, {"lowRatio", 0}}}}),
            qos(100, 0, 0));
  EXPECT_THROW(configuration_from_spec({{"memoryQos", 3}}), std::invalid_argument);
  EXPECT_THROW(configuration_from_spec({{"memoryQos", {{"minRatio", "1"}}}}),
               std::invalid_argument);
}

TEST(Configuration, EncodedValuesDecodeToThemselves) {
  for (const Configuration& c : {Configuration{}, qos(0, 0, 0), qos(100, 0, 0), qos(1, 2, 3)}) {
    EXPECT_EQ(decode_configuration(encode_configuration(c)), c);
  }
}

}  // namespace
}  // namespace vc::controllers::colocation
