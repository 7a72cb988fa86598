// status.nodeCount from a HyperNode's members and the node cache: exact names, label selectors,
// regular expressions, and the status patch.
#include "controllers/hypernode/node_count.h"

#include <gtest/gtest.h>

namespace vc::controllers::hypernode {
namespace {

using nlohmann::json;

struct Nodes {
  std::vector<kube::cache::Object> objects;
  std::vector<const kube::cache::Object*> ptrs() const {
    std::vector<const kube::cache::Object*> out;
    for (const auto& o : objects) out.push_back(&o);
    return out;
  }
};

kube::cache::Object node(const std::string& name, kube::cache::Labels labels = {}) {
  kube::cache::Object o;
  o.name = name;
  o.labels = std::move(labels);
  return o;
}

volcano::HyperNode hyper_node(json members, std::int64_t node_count = 0) {
  volcano::HyperNode h;
  json status = json::object();
  if (node_count != 0) status["nodeCount"] = node_count;
  volcano::decode_hyper_node({{"metadata", {{"name", "hn"}, {"resourceVersion", "9"}}},
                              {"spec", {{"tier", 1}, {"members", std::move(members)}}},
                              {"status", status}},
                             h);
  return h;
}

json exact(const std::string& name, const std::string& type = "Node") {
  return {{"type", type}, {"selector", {{"exactMatch", {{"name", name}}}}}};
}
json labels(json match) {
  return {{"type", "Node"}, {"selector", {{"labelMatch", match}}}};
}
json regex(const std::string& pattern) {
  return {{"type", "Node"}, {"selector", {{"regexMatch", {{"pattern", pattern}}}}}};
}

const Nodes kNodes{{node("a", {{"rack", "r1"}}), node("b", {{"rack", "r1"}}),
                    node("c", {{"rack", "r2"}}), node("d")}};

TEST(CountNodes, DistinctExactNamesCountWhetherOrNotTheyExist) {
  const auto h = hyper_node(json::array(
      {exact("a"), exact("a"), exact("ghost"), exact("leaf-hn-0", "HyperNode"), exact("")}));
  EXPECT_EQ(count_nodes(h.spec, kNodes.ptrs()), 3);
}

TEST(CountNodes, LabelMatchCountsTheNodesItSelectsOnceWithExactNames) {
  const auto h = hyper_node(json::array(
      {labels({{"matchLabels", {{"rack", "r1"}}}}), exact("a"),
       labels({{"matchExpressions",
                json::array({{{"key", "rack"}, {"operator", "In"}, {"values", {"r2"}}}})}})}));
  EXPECT_EQ(count_nodes(h.spec, kNodes.ptrs()), 3);  // a, b, c
}

TEST(CountNodes, EmptyOrUnconvertibleLabelMatchSelectsNothing) {
  EXPECT_EQ(count_nodes(hyper_node(json::array({labels(json::object())})).spec, kNodes.ptrs()), 0);
  const auto bad = hyper_node(json::array(
      {labels({{"matchExpressions",
                json::array({{{"key", "rack"}, {"operator", "In"}, {"values", json::array()}}})}}),
       exact("x")}));
  EXPECT_EQ(count_nodes(bad.spec, kNodes.ptrs()), 1);
}

TEST(CountNodes, RegexCountsNodeNamesItMatchesAnywhereAndInvalidRegexSelectsNothing) {
  EXPECT_EQ(count_nodes(hyper_node(json::array({regex("a("), exact("x")})).spec, kNodes.ptrs()), 1);
  // ^[ab]$ selects a and b; x is an exact name; a again counts once.
  EXPECT_EQ(count_nodes(hyper_node(json::array({regex("^[ab]$"), exact("x"), exact("a")})).spec,
                        kNodes.ptrs()),
            3);
  // Unanchored, as Go's MatchString: "[cd]" finds c and d.
  EXPECT_EQ(count_nodes(hyper_node(json::array({regex("[cd]")})).spec, kNodes.ptrs()), 2);
  EXPECT_EQ(count_nodes(hyper_node(json::array({regex("^zz")})).spec, kNodes.ptrs()), 0);
}

TEST(CountNodes, RegexGoAcceptsButRe2CannotCompileLeavesTheCountUnknown) {
  // (?<name>...) is Go 1.22+ syntax that Debian 12's RE2 does not know.
  EXPECT_EQ(
      count_nodes(hyper_node(json::array({regex("(?<n>a)"), exact("x")})).spec, kNodes.ptrs()),
      std::nullopt);
}

TEST(CountNodes, NoMembersCountZero) {
  EXPECT_EQ(count_nodes(hyper_node(json::array()).spec, kNodes.ptrs()), 0);
}

TEST(NodeCountPatch, WritesOnlyAChangedCountWithTheCachedVersion) {
  const auto h = hyper_node(json::array({exact("a")}), 1);
  EXPECT_EQ(node_count_patch(h, 1), std::nullopt);
  EXPECT_EQ(node_count_patch(h, 3),
            json({{"metadata", {{"resourceVersion", "9"}}}, {"status", {{"nodeCount", 3}}}}));
  EXPECT_EQ(node_count_patch(h, 0),
            json({{"metadata", {{"resourceVersion", "9"}}}, {"status", {{"nodeCount", nullptr}}}}));
  EXPECT_EQ(node_count_patch(hyper_node(json::array()), 0), std::nullopt);
}

}  // namespace
}  // namespace vc::controllers::hypernode
