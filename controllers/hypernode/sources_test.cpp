// The shell's pure decisions: the ConfigMap's place and content, which sources a configuration
// change stops and starts, and which node labels start a label round.
#include "controllers/hypernode/sources.h"

#include <gtest/gtest.h>

namespace vc::controllers::hypernode {
namespace {

using nlohmann::json;

TEST(ConfigMapRef, EnvironmentOrDefaults) {
  EXPECT_EQ(config_map_ref(nullptr, nullptr),
            (ConfigMapRef{.namespace_ = "volcano-system", .name = "volcano-controller-configmap"}));
  EXPECT_EQ(config_map_ref("", ""),
            (ConfigMapRef{.namespace_ = "volcano-system", .name = "volcano-controller-configmap"}));
  EXPECT_EQ(config_map_ref("vc", "batch"),
            (ConfigMapRef{.namespace_ = "batch", .name = "vc-controller-configmap"}));
}

kube::cache::JsonObject config_map(json data) {
  kube::cache::JsonObject o;
  o.json = {{"metadata", {{"name", "volcano-controller-configmap"}}}};
  if (!data.is_null()) o.json["data"] = std::move(data);
  return o;
}

TEST(ConfigOf, NoConfigMapIsAnEmptyConfiguration) {
  const auto config = config_of(nullptr);
  ASSERT_TRUE(config);
  EXPECT_TRUE(config->sources.empty());
}

TEST(ConfigOf, MissingKeyIsAnError) {
  const auto without_data = config_map(nullptr);
  EXPECT_EQ(config_of(&without_data).error(),
            "config key not found in ConfigMap: volcano-controller.conf");
  const auto other_key = config_map({{"other", "x"}});
  EXPECT_EQ(config_of(&other_key).error(),
            "config key not found in ConfigMap: volcano-controller.conf");
}

TEST(ConfigOf, ReadsTheKeyAndReportsParseErrors) {
  const auto good =
      config_map({{"volcano-controller.conf",
                   "networkTopologyDiscovery:\n- source: label\n  enabled: true\n  config:\n"
                   "    networkTopologyTypes:\n      t:\n      - nodeLabel: tor\n"
                   "      - nodeLabel: kubernetes.io/hostname\n"}});
  const auto config = config_of(&good);
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->enabled_sources(), std::vector<std::string>{"label"});
  const auto bad = config_map({{"volcano-controller.conf", "networkTopologyDiscovery: [\n"}});
  EXPECT_TRUE(config_of(&bad).error().starts_with("failed to parse config: "))
      << config_of(&bad).error();
  const auto not_text = config_map({{"volcano-controller.conf", 3}});
  EXPECT_EQ(config_of(&not_text).error(), "data.volcano-controller.conf: not a string");
}

NetworkTopologyConfig enabled(std::vector<std::pair<std::string, bool>> entries) {
  NetworkTopologyConfig config;
  for (auto& [source, on] : entries) config.sources.push_back({.source = source, .enabled = on});
  return config;
}

TEST(SourceChanges, StopsTheDisabledAndRestartsTheEnabledOnceInOrder) {
  EXPECT_EQ(source_changes({"label", "ufm"}, enabled({{"ufm", true}, {"label", false}})),
            (SourceChanges{.stop = {"label"}, .start = {"ufm"}}));
  EXPECT_EQ(source_changes({}, enabled({{"ufm", true}, {"label", true}, {"ufm", true}})),
            (SourceChanges{.stop = {}, .start = {"ufm", "label"}}));
  EXPECT_EQ(source_changes({"ufm"}, NetworkTopologyConfig{}),
            (SourceChanges{.stop = {"ufm"}, .start = {}}));
  EXPECT_EQ(source_changes({}, enabled({{"foo", true}})),
            (SourceChanges{.stop = {}, .start = {"foo"}}));
}

TEST(TierLabelValues, OnlyTheTierLabelsOfEveryType) {
  const std::vector<TopologyType> types = {{.name = "a", .tier_labels = {"tor", "spine"}},
                                           {.name = "b", .tier_labels = {"zone"}}};
  kube::cache::Object node;
  node.name = "n1";
  node.labels = {{"kubernetes.io/hostname", "n1"}, {"spine", "s1"}, {"tor", "t1"}};
  EXPECT_EQ(tier_label_values(types, node),
            (std::map<std::string, std::string>{{"spine", "s1"}, {"tor", "t1"}}));
  node.labels = {{"kubernetes.io/hostname", "n1"}};
  EXPECT_TRUE(tier_label_values(types, node).empty());
}

}  // namespace
}  // namespace vc::controllers::hypernode
