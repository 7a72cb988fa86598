// parse_discovery_config on the texts a ConfigMap may hold: Volcano's example, defaults, the
// label source's weak decoding and the UFM settings, and errors that name the field.
#include "controllers/hypernode/discovery_config.h"

#include <gtest/gtest.h>

namespace vc::controllers::hypernode {
namespace {

using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::nanoseconds;

NetworkTopologyConfig parse(const std::string& yaml) {
  auto config = parse_discovery_config(yaml);
  EXPECT_TRUE(config.ok()) << config.error();
  return config.ok() ? *config : NetworkTopologyConfig{};
}

std::string parse_error(const std::string& yaml) {
  auto config = parse_discovery_config(yaml);
  EXPECT_FALSE(config.ok());
  return config.error();
}

// The label source's settings of a one-source document with this `config` body.
LabelSettings label(const std::string& config_body) {
  const auto config = parse(
      "networkTopologyDiscovery:\n- source: label\n  enabled: true\n"
      "  config:\n" +
      config_body);
  return config.sources.empty() ? LabelSettings{} : config.sources[0].label;
}

const char* kVolcanoExample = R"(
networkTopologyDiscovery:
  - source: ufm
    enabled: true
    interval: 10m
    credentials:
      secretRef:
        name: ufm-credentials
        namespace: volcano-system
    config:
      endpoint: https://ufm-server:8080
      insecureSkipVerify: true
  - source: roce
    enabled: false
    interval: 15m
    config:
      endpoint: https://roce-server:9090
      token: token
  - source: label
    enabled: true
    config:
      networkTopologyTypes:
        topologyA2:
          - nodeLabel: "volcano.sh/tor"
          - nodeLabel: "kubernetes.io/hostname"
        topologyA3:
          - nodeLabel: "volcano.sh/hypercluster"
          - nodeLabel: "volcano.sh/hypernode"
          - nodeLabel: "kubernetes.io/hostname"
)";

TEST(DiscoveryConfig, VolcanosExampleReadsEverySource) {
  const NetworkTopologyConfig c = parse(kVolcanoExample);
  ASSERT_EQ(c.sources.size(), 3u);
  EXPECT_EQ(c.enabled_sources(), (std::vector<std::string>{"ufm", "label"}));
  EXPECT_EQ(c.enabled("roce"), nullptr);

  const DiscoverySource* ufm = c.enabled("ufm");
  ASSERT_NE(ufm, nullptr);
  EXPECT_EQ(ufm->interval, minutes(10));
  EXPECT_EQ(ufm->secret_ref,
            (SecretRef{.name = "ufm-credentials", .namespace_ = "volcano-system"}));
  EXPECT_EQ(ufm->ufm.endpoint, "https://ufm-server:8080");
  EXPECT_TRUE(ufm->ufm.insecure_skip_verify);
  EXPECT_EQ(ufm->ufm.error, "");

  const DiscoverySource* lbl = c.enabled("label");
  ASSERT_NE(lbl, nullptr);
  EXPECT_EQ(lbl->effective_interval(), hours(1));
  EXPECT_EQ(lbl->secret_ref, std::nullopt);
  EXPECT_EQ(lbl->label.types,
            (std::vector<TopologyType>{
                {.name = "topologyA2", .tier_labels = {"volcano.sh/tor"}},
                {.name = "topologyA3",
                 .tier_labels = {"volcano.sh/hypernode", "volcano.sh/hypercluster"}}}));
  EXPECT_TRUE(lbl->label.skipped.empty());
  EXPECT_EQ(lbl->label.error, "");
}

TEST(DiscoveryConfig, AnEmptyDocumentHasNoSources) {
  EXPECT_TRUE(parse("").sources.empty());
  EXPECT_TRUE(parse("# nothing yet\n").sources.empty());
  EXPECT_TRUE(parse("networkTopologyDiscovery:\n").sources.empty());
  EXPECT_TRUE(parse("other: 1\n").sources.empty());  // unknown keys are ignored
}

TEST(DiscoveryConfig, TheFirstEnabledEntryOfASourceWins) {
  const auto c = parse(
      "networkTopologyDiscovery:\n"
      "- {source: ufm, enabled: false, interval: 1m}\n"
      "- {source: ufm, enabled: true, interval: 2m}\n"
      "- {source: ufm, enabled: true, interval: 3m}\n");
  ASSERT_NE(c.enabled("ufm"), nullptr);
  EXPECT_EQ(c.enabled("ufm")->interval, minutes(2));
  EXPECT_EQ(c.enabled_sources(), (std::vector<std::string>{"ufm", "ufm"}));
}

TEST(DiscoveryConfig, IntervalsAreGoDurationsOrNanoseconds) {
  const auto c = parse(
      "networkTopologyDiscovery:\n"
      "- {source: a, interval: 1h30m}\n"
      "- {source: b, interval: \"90s\"}\n"
      "- {source: c, interval: 1000}\n"
      "- {source: d, interval: 0}\n"
      "- {source: e, interval: -5m}\n"
      "- {source: f}\n");
  ASSERT_EQ(c.sources.size(), 6u);
  EXPECT_EQ(c.sources[0].effective_interval(), minutes(90));
  EXPECT_EQ(c.sources[1].effective_interval(), std::chrono::seconds(90));
  EXPECT_EQ(c.sources[2].effective_interval(), nanoseconds(1000));
  // Zero, negative and absent all mean the default hour.
  EXPECT_EQ(c.sources[3].effective_interval(), hours(1));
  EXPECT_EQ(c.sources[4].effective_interval(), hours(1));
  EXPECT_EQ(c.sources[5].effective_interval(), hours(1));
}

TEST(DiscoveryConfig, ABadIntervalFailsTheDocumentNamingTheField) {
  EXPECT_EQ(parse_error("networkTopologyDiscovery:\n- source: ufm\n  interval: soon\n"),
            "failed to parse config: networkTopologyDiscovery[0].interval: cannot read \"soon\" "
            "as a time.Duration (line 3)");
}

TEST(DiscoveryConfig, EnabledMustBeABool) {
  EXPECT_EQ(parse_error("networkTopologyDiscovery:\n- source: ufm\n  enabled: maybe\n"),
            "failed to parse config: networkTopologyDiscovery[0].enabled: cannot read \"maybe\" "
            "as a bool (line 3)");
  // go-yaml v2 reads YAML 1.1 booleans.
  EXPECT_TRUE(
      parse("networkTopologyDiscovery:\n- {source: ufm, enabled: yes}\n").sources[0].enabled);
}

TEST(DiscoveryConfig, ShapesThatAreNotTheTypesFail) {
  EXPECT_EQ(parse_error("networkTopologyDiscovery: ufm\n"),
            "failed to parse config: networkTopologyDiscovery: expected a sequence, got a scalar "
            "(line 1)");
  EXPECT_EQ(parse_error("networkTopologyDiscovery:\n- source: [a]\n"),
            "failed to parse config: networkTopologyDiscovery[0].source: expected a string, got a "
            "sequence (line 2)");
  EXPECT_EQ(parse_error("networkTopologyDiscovery:\n- source: ufm\n  config: text\n"),
            "failed to parse config: networkTopologyDiscovery[0].config: expected a mapping, got a "
            "scalar (line 3)");
  EXPECT_EQ(
      parse_error("networkTopologyDiscovery:\n- source: ufm\n  credentials: {secretRef: x}\n"),
      "failed to parse config: networkTopologyDiscovery[0].credentials.secretRef: expected a "
      "mapping, got a scalar (line 3)");
}

TEST(DiscoveryConfig, InvalidYamlFails) {
  EXPECT_TRUE(parse_error("networkTopologyDiscovery: [\n").starts_with("failed to parse config: "));
}

TEST(DiscoveryConfig, CredentialsWithoutSecretRefHaveNone) {
  const auto c = parse("networkTopologyDiscovery:\n- {source: ufm, credentials: {}}\n");
  EXPECT_EQ(c.sources[0].secret_ref, std::nullopt);
}

TEST(LabelSettings, ATypeOfOneOrNoLabelsHasNoTiers) {
  const LabelSettings s = label(
      "    networkTopologyTypes:\n"
      "      single:\n"
      "      - nodeLabel: kubernetes.io/hostname\n"
      "      none: []\n"
      "      nothing:\n");
  EXPECT_EQ(s.types,
            (std::vector<TopologyType>{{.name = "none"}, {.name = "nothing"}, {.name = "single"}}));
}

TEST(LabelSettings, LongNamesAndRepeatedLabelsAreSkipped) {
  const LabelSettings s = label(
      "    networkTopologyTypes:\n"
      "      abcdefghijklmnopqrst: [{nodeLabel: a}, {nodeLabel: h}]\n"   // 20 bytes: kept
      "      abcdefghijklmnopqrstu: [{nodeLabel: a}, {nodeLabel: h}]\n"  // 21 bytes
      "      twice: [{nodeLabel: a}, {nodeLabel: a}, {nodeLabel: h}]\n");
  EXPECT_EQ(s.types,
            (std::vector<TopologyType>{{.name = "abcdefghijklmnopqrst", .tier_labels = {"a"}}}));
  EXPECT_EQ(s.skipped,
            (std::vector<std::string>{
                "networkTopologyDiscovery[0].config.networkTopologyTypes.abcdefghijklmnopqrstu: "
                "the name is longer than 20 characters",
                "networkTopologyDiscovery[0].config.networkTopologyTypes.twice: a nodeLabel "
                "appears twice"}));
  EXPECT_EQ(s.error, "");
}

TEST(LabelSettings, DecodingIsWeakAsMapstructures) {
  // Keys match ignoring case, one mapping is a list of one, a bool label becomes "1".
  const LabelSettings s = label(
      "    NetworkTopologyTypes:\n"
      "      one: {NODELABEL: rack}\n"
      "      odd: [{nodeLabel: true}, {nodeLabel: 12}, {nodeLabel: h}]\n");
  EXPECT_EQ(s.types, (std::vector<TopologyType>{{.name = "odd", .tier_labels = {"12", "1"}},
                                                {.name = "one"}}));
  EXPECT_EQ(s.error, "");
}

TEST(LabelSettings, AnUndecodableTypeLeavesTheSourceWithNoTypes) {
  const LabelSettings s = label(
      "    networkTopologyTypes:\n"
      "      good: [{nodeLabel: tor}, {nodeLabel: h}]\n"
      "      bad: [volcano.sh/tor, h]\n");
  EXPECT_TRUE(s.types.empty());
  EXPECT_EQ(s.error,
            "networkTopologyDiscovery[0].config.networkTopologyTypes.bad[0]: expected a mapping, "
            "got a scalar (line 7)");
}

TEST(UfmSettings, TheEndpointMustBeAString) {
  const auto missing = parse("networkTopologyDiscovery:\n- {source: ufm, config: {}}\n");
  EXPECT_EQ(missing.sources[0].ufm.error,
            "networkTopologyDiscovery[0].config.endpoint: must be a string");
  const auto number =
      parse("networkTopologyDiscovery:\n- source: ufm\n  config:\n    endpoint: 8080\n");
  EXPECT_EQ(number.sources[0].ufm.error,
            "networkTopologyDiscovery[0].config.endpoint: must be a string (line 4)");
  const auto quoted =
      parse("networkTopologyDiscovery:\n- {source: ufm, config: {endpoint: \"8080\"}}\n");
  EXPECT_EQ(quoted.sources[0].ufm.endpoint, "8080");
  EXPECT_EQ(quoted.sources[0].ufm.error, "");
}

TEST(UfmSettings, OnlyTheBoolTrueSkipsVerification) {
  const auto c = parse(
      "networkTopologyDiscovery:\n"
      "- {source: ufm, config: {endpoint: u, insecureSkipVerify: \"true\"}}\n"
      "- {source: ufm, config: {endpoint: u, insecureSkipVerify: 1}}\n"
      "- {source: ufm, config: {endpoint: u, insecureSkipVerify: on}}\n");
  EXPECT_FALSE(c.sources[0].ufm.insecure_skip_verify);
  EXPECT_FALSE(c.sources[1].ufm.insecure_skip_verify);
  EXPECT_TRUE(c.sources[2].ufm.insecure_skip_verify);
}

TEST(UfmSettings, OtherSourcesConfigIsNotReadAsUfms) {
  const auto c = parse("networkTopologyDiscovery:\n- {source: roce, config: {}}\n");
  EXPECT_EQ(c.sources[0].ufm.error, "");
}

TEST(ConfigMapName, FollowsTheReleaseName) {
  EXPECT_EQ(config_map_name(kDefaultReleaseName), "volcano-controller-configmap");
}

}  // namespace
}  // namespace vc::controllers::hypernode
