// Node utilization from cached pods and nodes, and which changes count.
#include "controllers/sharding/utilization.h"

#include <gtest/gtest.h>

namespace vc::controllers::sharding {
namespace {

using nlohmann::json;

std::shared_ptr<const NodeCapacity> node(json capacity, json annotations = json::object()) {
  json obj = {{"metadata", {{"name", "n1"}, {"annotations", annotations}}},
              {"status", {{"capacity", capacity}}}};
  return as_node(node_capacity_transform().fn(std::move(obj)));
}

std::shared_ptr<const PodUsage> pod(json spec, const std::string& phase = "Running",
                                    json annotations = json::object()) {
  json obj = {{"metadata", {{"name", "p"}, {"namespace", "ns"}, {"annotations", annotations}}},
              {"spec", spec},
              {"status", {{"phase", phase}}}};
  return as_pod(pod_usage_transform().fn(std::move(obj)));
}

json containers(std::initializer_list<std::pair<const char*, const char*>> reqs) {
  json out = json::array();
  for (const auto& [cpu, mem] : reqs) {
    json r = json::object();
    if (cpu) r["cpu"] = cpu;
    if (mem) r["memory"] = mem;
    out.push_back({{"name", "c"}, {"resources", {{"requests", r}}}});
  }
  return out;
}

TEST(Utilization, SumsActiveContainersOverCapacity) {
  const auto n = node({{"cpu", "4"}, {"memory", "8Gi"}});
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->cpu_milli, 4000);
  const auto a = pod({{"nodeName", "n1"},
                      {"containers", containers({{"500m", "1Gi"}, {"1500m", nullptr}})},
                      {"initContainers", containers({{"4", "8Gi"}})}});
  const auto done =
      pod({{"nodeName", "n1"}, {"containers", containers({{"4", nullptr}})}}, "Succeeded");
  const auto mirror = pod({{"nodeName", "n1"}, {"containers", containers({{"4", nullptr}})}},
                          "Running", {{"kubernetes.io/config.mirror", "x"}});
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->node_name, "n1");
  EXPECT_EQ(a->cpu_milli, 2000);  // init containers are not counted
  const auto m = node_metrics(*n, {a.get(), done.get(), mirror.get()});
  EXPECT_DOUBLE_EQ(m.cpu, 0.5);
  EXPECT_DOUBLE_EQ(m.memory, 0.125);
}

TEST(Utilization, CappedAtOneAndZeroWithoutCapacity) {
  const auto big = pod({{"nodeName", "n1"}, {"containers", containers({{"8", "1"}})}});
  EXPECT_DOUBLE_EQ(node_metrics(*node({{"cpu", "2"}}), {big.get()}).cpu, 1.0);
  EXPECT_DOUBLE_EQ(node_metrics(*node(json::object()), {big.get()}).cpu, 0.0);
  // Each container's request is rounded up to a millicore.
  const auto tiny = pod({{"containers", containers({{"100u", nullptr}, {"100u", nullptr}})}});
  EXPECT_EQ(tiny->cpu_milli, 2);
}

TEST(Utilization, SignificantChanges) {
  EXPECT_TRUE(utilization_changed(std::nullopt, {}));
  EXPECT_FALSE(
      utilization_changed(NodeMetrics{.cpu = 0.1, .memory = 0}, {.cpu = 0.6, .memory = 0}));
  EXPECT_TRUE(
      utilization_changed(NodeMetrics{.cpu = 0.1, .memory = 0}, {.cpu = 0.61, .memory = 0}));
  EXPECT_TRUE(utilization_changed(NodeMetrics{.cpu = 0, .memory = 0.9}, {.cpu = 0, .memory = 0.3}));
}

TEST(Utilization, NodeChanges) {
  const auto a = node({{"cpu", "4"}}, {{"x", "1"}});
  EXPECT_FALSE(node_changed(*a, *node({{"cpu", "4"}, {"memory", "1Gi"}}, {{"x", "1"}})));
  EXPECT_TRUE(node_changed(*a, *node({{"cpu", "4"}}, {{"x", "2"}})));
  EXPECT_FALSE(node_changed(*a, *node({{"cpu", "6"}}, {{"x", "1"}})));  // 2/5 = 0.4
  EXPECT_TRUE(node_changed(*a, *node({{"cpu", "7"}}, {{"x", "1"}})));   // 3/5 = 0.6
}

}  // namespace
}  // namespace vc::controllers::sharding
