// The colocation-config-controller's decisions on plain data: which configuration governs a
// pod, and which annotation change a sync writes (spec controller-manager.md §5.6).
#include "controllers/colocation/plan.h"

#include <gtest/gtest.h>

namespace vc::controllers::colocation {
namespace {

using nlohmann::json;

ColocationConfigView config(const std::string& name, const std::string& created, json spec) {
  json object = {
      {"metadata", {{"name", name}, {"namespace", "ml"}, {"creationTimestamp", created}}},
      {"spec", std::move(spec)}};
  return *make_colocation_config_view(object);
}

json app(const std::string& value) {
  return {{"matchLabels", {{"app", value}}}};
}

const kube::cache::Labels kWeb = {{"app", "web"}, {"tier", "front"}};

TEST(ColocationConfigView, SelectsAsLabelSelectorAsSelectorDoes) {
  EXPECT_TRUE(config("a", "2026-01-01T00:00:00Z", {{"selector", app("web")}}).selects(kWeb));
  EXPECT_FALSE(config("a", "2026-01-01T00:00:00Z", {{"selector", app("db")}}).selects(kWeb));
  // Missing selector: nothing; empty selector: everything.
  EXPECT_FALSE(config("a", "2026-01-01T00:00:00Z", json::object()).selects(kWeb));
  EXPECT_TRUE(config("a", "2026-01-01T00:00:00Z", {{"selector", json::object()}}).selects({}));
  // A selector that does not convert selects nothing.
  const auto bad =
      config("a", "2026-01-01T00:00:00Z",
             {{"selector",
               {{"matchExpressions", {{{"key", "app"}, {"operator", "Gt"}, {"values", {"1"}}}}}}}});
  EXPECT_FALSE(bad.match.has_value());
  EXPECT_FALSE(bad.selects(kWeb));
  const auto in = config("a", "2026-01-01T00:00:00Z",
                         {{"selector",
                           {{"matchExpressions",
                             {{{"key", "app"}, {"operator", "In"}, {"values", {"web", "db"}}}}}}}});
  EXPECT_TRUE(in.selects(kWeb));
}

TEST(GoverningConfiguration, TheNewestMatchingConfigurationWins) {
  const auto old_web = config("old", "2026-01-01T00:00:00Z",
                              {{"selector", app("web")}, {"memoryQos", {{"highRatio", 100}}}});
  const auto new_web = config("new", "2026-01-02T00:00:00Z",
                              {{"selector", app("web")}, {"memoryQos", {{"highRatio", 80}}}});
  const auto newest_db = config("db", "2026-01-03T00:00:00Z", {{"selector", app("db")}});
  EXPECT_EQ(governing_configuration(kWeb, {&old_web, &new_web, &newest_db}), &new_web);
  EXPECT_EQ(governing_configuration(kWeb, {&newest_db, &new_web, &old_web}), &new_web);
  EXPECT_EQ(governing_configuration(kWeb, {&old_web}), &old_web);
  EXPECT_EQ(governing_configuration(kWeb, {&newest_db}), nullptr);
  EXPECT_EQ(governing_configuration(kWeb, {}), nullptr);
}

TEST(GoverningConfiguration, ConfigurationsOfTheSameSecondGoByName) {
  const auto b = config("b", "2026-01-01T00:00:00Z", {{"selector", app("web")}});
  const auto a = config("a", "2026-01-01T00:00:00Z", {{"selector", app("web")}});
  EXPECT_EQ(governing_configuration(kWeb, {&b, &a}), &a);
  EXPECT_EQ(governing_configuration(kWeb, {&a, &b}), &a);
}

TEST(PlanPod, StampsTheNameAndTheEncodedConfiguration) {
  const auto c =
      config("qos", "2026-01-01T00:00:00Z",
             {{"selector", app("web")}, {"memoryQos", {{"highRatio", 80}, {"lowRatio", 0}}}});
  const auto change = plan_pod({}, &c);
  ASSERT_TRUE(change.has_value());
  EXPECT_EQ(change->config_name, "qos");
  EXPECT_EQ(change->config, R"({"memoryQos":{"highRatio":80}})");
  // A pod that carried another configuration, or a stale or unreadable copy of this one.
  for (const PodAnnotations& current :
       {PodAnnotations{.config_name = "other", .config = R"({"memoryQos":{"highRatio":80}})"},
        PodAnnotations{.config_name = "qos", .config = std::nullopt},
        PodAnnotations{.config_name = std::nullopt, .config = R"({"memoryQos":{"highRatio":80}})"},
        PodAnnotations{.config_name = "qos", .config = R"({"memoryQos":{"highRatio":90}})"},
        PodAnnotations{.config_name = "qos", .config = "{}"},
        PodAnnotations{.config_name = "qos", .config = "not json"}}) {
    const auto again = plan_pod(current, &c);
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(again->config_name, "qos");
    EXPECT_EQ(again->config, R"({"memoryQos":{"highRatio":80}})");
  }
}

TEST(PlanPod, AStampedPodIsLeftAloneWhateverTheFormatting) {
  const auto c = config("qos", "2026-01-01T00:00:00Z",
                        {{"selector", app("web")}, {"memoryQos", {{"highRatio", 80}}}});
  EXPECT_EQ(plan_pod({.config_name = "qos", .config = R"({"memoryQos":{"highRatio":80}})"}, &c),
            std::nullopt);
  EXPECT_EQ(plan_pod({.config_name = "qos",
                      .config = R"({ "memoryQos": {"lowRatio": 0, "highRatio": 80}, "x": 1 })"},
                     &c),
            std::nullopt);
  // A configuration without memoryQos is stamped as {} (the same text as the reset marker).
  const auto bare = config("bare", "2026-01-01T00:00:00Z", {{"selector", app("web")}});
  EXPECT_EQ(plan_pod({.config_name = "bare", .config = "{}"}, &bare), std::nullopt);
  EXPECT_EQ(plan_pod({.config_name = "bare", .config = R"({"memoryQos":null})"}, &bare),
            std::nullopt);
  EXPECT_NE(plan_pod({.config_name = "bare", .config = R"({"memoryQos":{}})"}, &bare),
            std::nullopt);
}

TEST(PlanPod, WithoutAConfigurationThePodIsResetOnce) {
  EXPECT_EQ(plan_pod({}, nullptr), std::nullopt);
  EXPECT_EQ(plan_pod({.config_name = std::nullopt, .config = "{}"}, nullptr), std::nullopt);
  for (const PodAnnotations& current :
       {PodAnnotations{.config_name = "qos", .config = R"({"memoryQos":{"highRatio":80}})"},
        PodAnnotations{.config_name = "qos", .config = "{}"},
        PodAnnotations{.config_name = "qos", .config = std::nullopt},
        PodAnnotations{.config_name = std::nullopt, .config = R"({"memoryQos":{}})"}}) {
    const auto change = plan_pod(current, nullptr);
    ASSERT_TRUE(change.has_value());
    EXPECT_EQ(change->config_name, std::nullopt);
    EXPECT_EQ(change->config, "{}");
  }
}

}  // namespace
}  // namespace vc::controllers::colocation
