// The shell's pure decisions: the ConfigMap's place and content, which sources a configuration
// change stops and starts, and which node labels and HyperNode changes start a label round.
#include "controllers/hypernode/sources.h"

#include <gtest/gtest.h>

#include "controllers/hypernode/reconcile_plan.h"

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

// A tier-1 HyperNode of `nodes` as the cache holds it.
volcano::HyperNode hyper_node(const std::string& source, std::vector<std::string> nodes,
                              const std::string& resource_version = "7", int node_count = 0,
                              const std::string& rack = "r9") {
  json members = json::array();
  for (const auto& n : nodes) {
    members.push_back({{"type", "Node"}, {"selector", {{"exactMatch", {{"name", n}}}}}});
  }
  volcano::HyperNode h;
  volcano::decode_hyper_node(
      {{"metadata",
        {{"name", "h"},
         {"resourceVersion", resource_version},
         {"labels", {{"volcano.sh/network-topology-source", source}, {"rack", rack}}}}},
       {"spec", {{"tier", 1}, {"members", std::move(members)}}},
       {"status", {{"nodeCount", node_count}}}},
      h);
  return h;
}

DesiredHyperNode wanted(std::vector<std::string> nodes) {
  return {.name = "h",
          .labels = {{"volcano.sh/network-topology-source", "label"}},
          .tier = 1,
          .members = exact_members(std::move(nodes), "Node")};
}

ReconcilePlan label_round(const std::vector<DesiredHyperNode>& desired,
                          const std::vector<const volcano::HyperNode*>& cache) {
  return plan_reconcile(source::kLabel, desired, cache);
}

TEST(LabelRoundNeeded, OurCreateSeenLateStartsTheRoundThatDeletesItWhenNoLongerWanted) {
  // Round N created h for rack r9; node a was relabelled again and round N+1, planned before the
  // cache showed h, wants no HyperNode: it has nothing to delete.
  EXPECT_TRUE(label_round({}, {}).empty());
  // h's ADD starts a round, which sees h and deletes it.
  const volcano::HyperNode h = hyper_node("label", {"a"});
  EXPECT_TRUE(label_round_needed(nullptr, h));
  EXPECT_EQ(label_round({}, {&h}).deletes, std::vector<DeleteHyperNode>{{.name = "h"}});
}

TEST(LabelRoundNeeded, OurPatchSeenLateStartsTheRoundThatPatchesItBack) {
  const volcano::HyperNode with_a = hyper_node("label", {"a"}, "7");
  const volcano::HyperNode with_b = hyper_node("label", {"b"}, "8");
  // Round N patched h from a to b; a label flipped back and round N+1 wants a while the cache
  // still shows a: nothing to patch.
  EXPECT_TRUE(label_round({wanted({"a"})}, {&with_a}).empty());
  // h's update a -> b starts a round, which patches it back to a over the version it saw.
  EXPECT_TRUE(label_round_needed(&with_a, with_b));
  const ReconcilePlan again = label_round({wanted({"a"})}, {&with_b});
  ASSERT_EQ(again.updates.size(), 1u);
  EXPECT_EQ(again.updates[0].patch["metadata"]["resourceVersion"], "8");
  EXPECT_EQ(again.updates[0].patch["spec"]["members"],
            encode_members(exact_members({"a"}, "Node")));
}

TEST(LabelRoundNeeded, ALabelChangeOfALabelSourceHyperNodeStartsARound) {
  const volcano::HyperNode before = hyper_node("label", {"a"}, "7", 0, "r9");
  const volcano::HyperNode after = hyper_node("label", {"a"}, "8", 0, "r10");
  EXPECT_TRUE(label_round_needed(&before, after));
}

TEST(LabelRoundNeeded, StatusOnlyChangesAndOtherSourcesHyperNodesStartNone) {
  const volcano::HyperNode h = hyper_node("label", {"a"}, "7");
  // The nodeCount worker's own write, and a periodic resync (the same object twice).
  EXPECT_FALSE(label_round_needed(&h, hyper_node("label", {"a"}, "8", 1)));
  EXPECT_FALSE(label_round_needed(&h, h));
  const volcano::HyperNode ufm = hyper_node("ufm", {"a"});
  EXPECT_FALSE(label_round_needed(nullptr, ufm));
  EXPECT_FALSE(label_round_needed(&ufm, hyper_node("ufm", {"b"})));
}

}  // namespace
}  // namespace vc::controllers::hypernode
