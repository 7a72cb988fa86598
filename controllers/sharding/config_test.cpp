// The sharding configuration: the flag entries (and their fallback to the defaults), the
// ConfigMap document with errors naming the field, and the effective policy chains.
#include "controllers/sharding/config.h"

#include <gtest/gtest.h>

namespace vc::controllers::sharding {
namespace {

std::vector<std::string> names(const std::vector<PolicySpec>& ps) {
  std::vector<std::string> out;
  for (const auto& p : ps) out.push_back(p.name + "/" + std::to_string(p.weight));
  return out;
}

TEST(FlagConfigs, ParsesTheDefaults) {
  auto specs = parse_flag_configs(default_flag_configs());
  ASSERT_TRUE(specs) << specs.error();
  ASSERT_EQ(specs->size(), 2u);
  const SchedulerSpec& agent = (*specs)[1];
  EXPECT_EQ(agent.name, "agent-scheduler");
  EXPECT_EQ(agent.type, "agent");
  EXPECT_DOUBLE_EQ(agent.cpu_utilization_min, 0.7);
  EXPECT_TRUE(agent.prefer_warmup_nodes);
  EXPECT_EQ(agent.min_nodes, 2);
  EXPECT_EQ(agent.max_nodes, 100);
  // The flag entry already has its allocation-rate policy, so preferWarmup adds no warmup.
  EXPECT_EQ(names(effective_policies(agent)),
            (std::vector<std::string>{"allocation-rate/1", "node-limit/1"}));
}

TEST(FlagConfigs, ErrorsNameThePart) {
  EXPECT_EQ(parse_flag_entry("a:b:0:1:false:1").error(),
            "invalid scheduler config format: a:b:0:1:false:1, expected 7 colon-separated parts");
  EXPECT_NE(parse_flag_entry("a:b:x:1:false:1:2").error().find("invalid min utilization"),
            std::string::npos);
  EXPECT_NE(parse_flag_entry("a:b:0:1:maybe:1:2").error().find("invalid prefer warmup flag"),
            std::string::npos);
  EXPECT_NE(parse_flag_entry("a:b:0:1:false:1:2.5").error().find("invalid max nodes"),
            std::string::npos);
}

TEST(FlagConfigs, InfinityShortcutsAndNoNodeLimitWithoutBounds) {
  auto s = parse_flag_entry("a:b:-inf:inf:T:0:0");
  ASSERT_TRUE(s) << s.error();
  EXPECT_DOUBLE_EQ(s->cpu_utilization_min, 0.0);
  EXPECT_DOUBLE_EQ(s->cpu_utilization_max, 1.0);
  EXPECT_EQ(names(effective_policies(*s)), (std::vector<std::string>{"allocation-rate/1"}));
}

TEST(FlagConfigs, ABadEntryFallsBackToTheDefaults) {
  std::string error;
  auto specs = flag_scheduler_specs({"ok:volcano:0:1:false:0:3", "broken"}, &error);
  EXPECT_NE(error.find("broken"), std::string::npos);
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(specs[0].name, "volcano");
  EXPECT_EQ(specs[1].name, "agent-scheduler");
}

TEST(ShardingYaml, ReadsPoliciesWithCaseInsensitiveKeys) {
  auto cfg = parse_sharding_yaml(R"(
schedulerConfigs:
  - name: a
    type: volcano
    Policies:
      - name: allocation-rate
        weight: 2
        arguments: {minCPUUtil: 0.1, maxCPUUtil: 0.9}
      - name: warmup
      - name: node-limit
        arguments: {maxNodes: 3}
shardSyncPeriod: 30s
enableNodeEventTrigger: false
unknownKey: 1
)");
  ASSERT_TRUE(cfg) << cfg.error();
  ASSERT_EQ(cfg->schedulers.size(), 1u);
  EXPECT_EQ(cfg->shard_sync_period, "30s");
  ASSERT_TRUE(cfg->enable_node_event_trigger.has_value());
  EXPECT_FALSE(*cfg->enable_node_event_trigger);
  const auto chain = effective_policies(cfg->schedulers[0]);
  EXPECT_EQ(names(chain),
            (std::vector<std::string>{"allocation-rate/2", "warmup/1", "node-limit/1"}));
  EXPECT_DOUBLE_EQ(chain[0].arguments.at("maxCPUUtil").number, 0.9);
}

TEST(ShardingYaml, LegacyFieldsBecomePolicies) {
  auto cfg = parse_sharding_yaml(R"(
schedulerConfigs:
  - name: a
    cpuUtilizationMin: 0.2
    cpuUtilizationMax: 0.8
    preferWarmupNodes: true
    minNodes: 1
    maxNodes: 5
)");
  ASSERT_TRUE(cfg) << cfg.error();
  const auto chain = effective_policies(cfg->schedulers[0]);
  EXPECT_EQ(names(chain),
            (std::vector<std::string>{"allocation-rate/1", "warmup/1", "node-limit/1"}));
  EXPECT_DOUBLE_EQ(chain[0].arguments.at("minCPUUtil").number, 0.2);
  EXPECT_DOUBLE_EQ(chain[2].arguments.at("maxNodes").number, 5);
  EXPECT_FALSE(cfg->enable_node_event_trigger.has_value());
}

TEST(ShardingYaml, ValidationErrorsNameTheField) {
  EXPECT_EQ(parse_sharding_yaml("").error(),
            "sharding config must contain at least one schedulerConfig entry");
  EXPECT_EQ(parse_sharding_yaml("schedulerConfigs: [{type: x}]").error(),
            "schedulerConfigs[0]: name must not be empty");
  EXPECT_EQ(parse_sharding_yaml("schedulerConfigs: [{name: a, cpuUtilizationMax: 1.5}]").error(),
            "schedulerConfigs[0] (a): cpuUtilizationMax 1.50 out of range [0,1]");
  EXPECT_EQ(parse_sharding_yaml("schedulerConfigs: [{name: a, minNodes: 2}]").error(),
            "schedulerConfigs[0] (a): maxNodes (0) must be >= minNodes (2)");
  EXPECT_EQ(parse_sharding_yaml("schedulerConfigs: [{name: a, policies: [{name: warmup, "
                                "arguments: {maxNodes: 1}}]}]")
                .error(),
            "schedulerConfigs[0] (a): policies[0] (warmup): maxNodes is only supported by the "
            "node-limit policy");
  EXPECT_EQ(parse_sharding_yaml("schedulerConfigs: [{name: a, policies: [{weight: -1}]}]").error(),
            "schedulerConfigs[0] (a): policies[0].name must not be empty");
  EXPECT_EQ(parse_sharding_yaml("schedulerConfigs: [{name: 5}]").error(),
            "failed to unmarshal sharding config: schedulerConfigs[0].name: cannot read a number "
            "as a string");
  EXPECT_EQ(parse_sharding_yaml("schedulerConfigs: [{name: a, maxNodes: 2.5}]").error(),
            "failed to unmarshal sharding config: schedulerConfigs[0].maxNodes: cannot read a "
            "number as an integer");
  EXPECT_NE(parse_sharding_yaml("schedulerConfigs: [").error().find("failed to unmarshal"),
            std::string::npos);
}

}  // namespace
}  // namespace vc::controllers::sharding
