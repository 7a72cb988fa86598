#include "webhook/admission/pods/go_roundtrip.h"

#include <gtest/gtest.h>

#include "webhook/admission/pods/pod_schema.h"

namespace vc::webhook::pods {
namespace {

using nlohmann::json;

json roundtrip(const char* text) {
  auto out = go_roundtrip(json::parse(text), affinity_type());
  EXPECT_TRUE(out.ok()) << out.error();
  return out.ok() ? *out : json("failed");
}

TEST(GoRoundTrip, KeysMatchCaseInsensitivelyAndNonOmitemptyFieldsAppear) {
  EXPECT_EQ(roundtrip(R"({"NODEAFFINITY":{"requiredDuringSchedulingIgnoredDuringExecution":{}}})"),
            json::parse(R"({"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":
                            {"nodeSelectorTerms":null}}})"));
  EXPECT_EQ(roundtrip(R"({"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":
                          [{"labelSelector":{"matchLabels":{"app":"x"}},"topologykey":"zone"}]}})"),
            json::parse(R"({"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":
                            [{"labelSelector":{"matchLabels":{"app":"x"}},"topologyKey":"zone"}]}})"));
}

TEST(GoRoundTrip, ZeroValuesOfRequiredFieldsAreWrittenAndUnknownKeysDropped) {
  EXPECT_EQ(roundtrip(R"({"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":
                          [{"preference":{}}]},"extra":1})"),
            json::parse(R"({"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":
                            [{"weight":0,"preference":{}}]}})"));
}

TEST(GoRoundTrip, NullsAndEmptyPointersFollowGo) {
  EXPECT_EQ(roundtrip("null"), json::object());
  EXPECT_EQ(roundtrip("{}"), json::object());
  EXPECT_EQ(roundtrip(R"({"nodeAffinity":null})"), json::object());
  EXPECT_EQ(roundtrip(R"({"podAffinity":{}})"), json::parse(R"({"podAffinity":{}})"));
}

TEST(GoRoundTrip, WrongTypesFailWithGoMessages) {
  auto bad = go_roundtrip(
      json::parse(
          R"({"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":"1"}]}})"),
      affinity_type());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(),
            "json: cannot unmarshal string into Go struct field PreferredSchedulingTerm."
            "nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution.weight of type int32");
  auto huge =
      go_roundtrip(json::parse(R"({"tolerationSeconds":18446744073709551615})"), toleration_type());
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error(),
            "json: cannot unmarshal number 18446744073709551615 into Go struct field "
            "Toleration.tolerationSeconds of type int64");
  auto array = go_roundtrip(json::parse("[1]"), affinity_type());
  ASSERT_FALSE(array.ok());
  EXPECT_EQ(array.error(), "json: cannot unmarshal array into Go value of type v1.Affinity");
}

TEST(GoRoundTrip, TolerationsDropEmptyFields) {
  auto t = go_roundtrip(json::parse(R"({"key":"a","value":"","tolerationSeconds":0,"x":1})"),
                        toleration_type());
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(*t, json::parse(R"({"key":"a","tolerationSeconds":0})"));
}

}  // namespace
}  // namespace vc::webhook::pods
