// The policies and the assignment on plain data: filter, weighted score, node limit, the order
// of schedulers, the batches of 50, and the chain that stops at the first bad policy.
#include "controllers/sharding/policies.h"

#include <gtest/gtest.h>

namespace vc::controllers::sharding {
namespace {

using Names = std::vector<std::string>;

NodeFacts node(std::string name, std::optional<double> cpu, kube::cache::Labels labels = {}) {
  return {.name = std::move(name), .labels = std::move(labels), .cpu_utilization = cpu};
}

SchedulerSpec flag(const std::string& entry) {
  return *parse_flag_entry(entry);
}

TEST(Policies, DefaultsSplitByUtilization) {
  // volcano takes [0, 0.6], agent-scheduler [0.7, 1.0]; 0.65 is in neither; no metrics: none.
  auto chains = resolve_chains(*parse_flag_configs(default_flag_configs()));
  ASSERT_EQ(chains.error, "");
  std::vector<NodeFacts> nodes = {node("n1", 0.0), node("n2", 0.5),          node("n3", 0.65),
                                  node("n4", 0.9), node("n5", std::nullopt), node("n6", 0.604)};
  auto out = assign_nodes(chains.chains, nodes);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].scheduler, "volcano");
  // Higher utilization ranks first; 0.604 rounds to 0.60 (in range, score 1).
  EXPECT_EQ(out[0].nodes, (Names{"n6", "n2", "n1"}));
  EXPECT_EQ(out[1].nodes, (Names{"n4"}));
}

TEST(Policies, EarlierSchedulersTakeFirstAndTheLimitCuts) {
  auto chains = resolve_chains({flag("a:v:0:1:false:0:2"), flag("b:v:0:1:false:0:100")});
  std::vector<NodeFacts> nodes = {node("n1", 0), node("n2", 0), node("n3", 0), node("n4", 0)};
  auto out = assign_nodes(chains.chains, nodes);
  // Equal scores keep the input order.
  EXPECT_EQ(out[0].nodes, (Names{"n1", "n2"}));
  EXPECT_EQ(out[1].nodes, (Names{"n3", "n4"}));
}

TEST(Policies, WarmupWeightPullsLabelledNodesAhead) {
  SchedulerSpec s;
  s.name = "w";
  s.policies = {
      {.name = "allocation-rate",
       .weight = 1,
       .arguments = {{"minCPUUtil", PolicyArg::of_number(0)},
                     {"maxCPUUtil", PolicyArg::of_number(0.6)}}},
      {.name = "warmup", .weight = 2, .arguments = {}},
      {.name = "node-limit", .weight = 0, .arguments = {{"maxNodes", PolicyArg::of_number(2)}}}};
  auto chains = resolve_chains({s});
  ASSERT_EQ(chains.error, "");
  std::vector<NodeFacts> nodes = {node("busy", 0.55), node("cold", 0.05),
                                  node("warm", 0.05, {{kDefaultWarmupLabel, "true"}})};
  auto out = assign_nodes(chains.chains, nodes);
  EXPECT_EQ(out[0].nodes, (Names{"warm", "busy"}));
}

TEST(Policies, ABadPolicyEmptiesItsChainAndEveryLaterOne) {
  SchedulerSpec bad;
  bad.name = "bad";
  bad.policies = {{.name = "no-such-policy", .weight = 1, .arguments = {}}};
  auto chains = resolve_chains({flag("a:v:0:0.5:false:0:1"), bad, flag("c:v:0:1:false:0:1")});
  EXPECT_EQ(chains.error,
            "failed to initialize policy no-such-policy for scheduler bad: policy no-such-policy "
            "not found");
  ASSERT_EQ(chains.chains.size(), 3u);
  EXPECT_EQ(chains.chains[0].policies.size(), 2u);
  EXPECT_TRUE(chains.chains[1].policies.empty());
  EXPECT_TRUE(chains.chains[2].policies.empty());
  // An empty chain takes every node left, metrics or not.
  auto out = assign_nodes(chains.chains, {node("n1", 0.1), node("n2", std::nullopt)});
  EXPECT_EQ(out[0].nodes, (Names{"n1"}));
  EXPECT_EQ(out[1].nodes, (Names{"n2"}));
  EXPECT_TRUE(out[2].nodes.empty());
}

TEST(Policies, ArgumentErrors) {
  EXPECT_EQ(make_policy({.name = "allocation-rate",
                         .weight = 1,
                         .arguments = {{"minCPUUtil", PolicyArg::of_number(0.8)},
                                       {"maxCPUUtil", PolicyArg::of_number(0.2)}}})
                .error(),
            "invalid CPU utilization range [0.80, 0.20]: must be within [0.0, 1.0] and min <= max");
  EXPECT_EQ(make_policy({.name = "node-limit",
                         .weight = 1,
                         .arguments = {{"minNodes", PolicyArg::of_number(3)},
                                       {"maxNodes", PolicyArg::of_number(2)}}})
                .error(),
            "invalid bounds [3, 2]: maxNodes must be >= minNodes");
  EXPECT_EQ(
      make_policy(
          {.name = "warmup", .weight = 1, .arguments = {{"warmupLabel", PolicyArg::of_text("")}}})
          .error(),
      "warmupLabel cannot be empty");
  // A string where a number belongs is ignored: the default range [0, 0] stays.
  auto p = make_policy({.name = "allocation-rate",
                        .weight = 0,
                        .arguments = {{"maxCPUUtil", PolicyArg::of_text("0.5")}}});
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p->weight, 1);
  EXPECT_DOUBLE_EQ(std::get<AllocationRate>(p->impl).max_rounded, 0.0);
}

TEST(Policies, BatchesOfFiftyEachApplyTheLimit) {
  auto chains = resolve_chains({flag("a:v:0:1:false:0:10"), flag("b:v:0:1:false:0:1000")});
  std::vector<NodeFacts> nodes;
  for (int i = 0; i < 60; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "n%02d", i);
    nodes.push_back(node(name, 0.1));
  }
  auto out = assign_nodes(chains.chains, nodes);
  // 10 from the first batch of 50 and 10 from the batch of 10.
  EXPECT_EQ(out[0].nodes.size(), 20u);
  EXPECT_EQ(out[1].nodes.size(), 40u);
  EXPECT_EQ(out[0].nodes[10], "n50");
}

TEST(Policies, RoundingIsHalfAwayFromZero) {
  EXPECT_DOUBLE_EQ(round_utilization(0.125), 0.13);
  EXPECT_DOUBLE_EQ(round_utilization(0.6049), 0.6);
}

}  // namespace
}  // namespace vc::controllers::sharding
