// plan_reconcile on plain HyperNodes: what a source creates, patches and deletes, and what it
// never touches.
#include "controllers/hypernode/reconcile_plan.h"

#include <gtest/gtest.h>

namespace vc::controllers::hypernode {
namespace {

using nlohmann::json;

volcano::HyperNode cached(const std::string& name, json labels, json spec,
                          const std::string& resource_version = "7") {
  volcano::HyperNode h;
  volcano::decode_hyper_node(
      {{"metadata",
        {{"name", name}, {"labels", std::move(labels)}, {"resourceVersion", resource_version}}},
       {"spec", std::move(spec)},
       {"status", {{"nodeCount", 2}}}},
      h);
  return h;
}

const json kUfm = {{"volcano.sh/network-topology-source", "ufm"}};

DesiredHyperNode leaf(const std::string& name, std::vector<std::string> nodes) {
  return {.name = name,
          .labels = {{"volcano.sh/network-topology-source", "ufm"}},
          .tier = 1,
          .members = exact_members(std::move(nodes), "Node")};
}

DesiredHyperNode spine(std::vector<std::string> leaves) {
  return {.name = "spine-hn",
          .labels = {{"volcano.sh/network-topology-source", "ufm"}},
          .tier = 2,
          .members = exact_members(std::move(leaves), "HyperNode")};
}

json leaf_spec(std::vector<std::string> nodes) {
  json members = json::array();
  for (const auto& n : nodes)
    members.push_back({{"type", "Node"}, {"selector", {{"exactMatch", {{"name", n}}}}}});
  return {{"tier", 1}, {"members", members}};
}

struct Fixture {
  std::vector<volcano::HyperNode> cache;
  ReconcilePlan run(const std::vector<DesiredHyperNode>& desired,
                    const std::string& source = "ufm") const {
    std::vector<const volcano::HyperNode*> existing;
    for (const auto& h : cache) existing.push_back(&h);
    return plan_reconcile(source, desired, existing);
  }
};

TEST(PlanReconcile, NewHyperNodesAreCreatedLowTiersFirst) {
  const Fixture f;
  const auto plan = f.run(
      {spine({"leaf-hn-0", "leaf-hn-1"}), leaf("leaf-hn-1", {"b"}), leaf("leaf-hn-0", {"a"})});
  ASSERT_EQ(plan.creates.size(), 3u);
  EXPECT_EQ(plan.creates[0].hyper_node, leaf("leaf-hn-0", {"a"}));
  EXPECT_EQ(plan.creates[1].hyper_node, leaf("leaf-hn-1", {"b"}));
  EXPECT_EQ(plan.creates[2].hyper_node.name, "spine-hn");
  EXPECT_TRUE(plan.updates.empty());
  EXPECT_TRUE(plan.deletes.empty());
}

TEST(PlanReconcile, AnOwnedHyperNodeThatMatchesIsLeftAlone) {
  Fixture f;
  json labels = kUfm;
  labels["team"] = "net";  // labels of others stay and do not matter
  f.cache = {cached("leaf-hn-0", labels, leaf_spec({"a", "b"}))};
  EXPECT_TRUE(f.run({leaf("leaf-hn-0", {"a", "b"})}).empty());
}

TEST(PlanReconcile, AChangedSpecIsPatchedWholeWithTheResourceVersion) {
  Fixture f;
  json spec = leaf_spec({"a"});
  spec["tierName"] = "rack";
  f.cache = {cached("leaf-hn-0", kUfm, spec, "41")};
  const auto plan = f.run({leaf("leaf-hn-0", {"a", "b"})});
  ASSERT_EQ(plan.updates.size(), 1u);
  EXPECT_EQ(plan.updates[0],
            (UpdateHyperNode{.name = "leaf-hn-0",
                             .patch = {{"metadata", {{"resourceVersion", "41"}}},
                                       {"spec",
                                        {{"tier", 1},
                                         {"tierName", nullptr},
                                         {"members", leaf_spec({"a", "b"})["members"]}}}}}));
  EXPECT_TRUE(plan.creates.empty());
  EXPECT_TRUE(plan.deletes.empty());
}

TEST(PlanReconcile, AMissingOrDifferentLabelIsPatched) {
  Fixture f;
  f.cache = {cached("hn", {{"volcano.sh/network-topology-source", "label"}, {"tor", "old"}},
                    {{"tier", 1}, {"tierName", "tor"}})};
  const DesiredHyperNode want{
      .name = "hn",
      .labels = {{"volcano.sh/network-topology-source", "label"}, {"tor", "t1"}, {"zone", "z"}},
      .tier = 1,
      .tier_name = "tor"};
  const auto plan = f.run({want}, "label");
  ASSERT_EQ(plan.updates.size(), 1u);
  EXPECT_EQ(plan.updates[0].patch["metadata"],
            (json{{"resourceVersion", "7"}, {"labels", {{"tor", "t1"}, {"zone", "z"}}}}));
}

TEST(PlanReconcile, OwnedHyperNodesNotDiscoveredAreDeletedHighTiersFirst) {
  Fixture f;
  f.cache = {cached("leaf-hn-0", kUfm, leaf_spec({"a"})),
             cached("leaf-hn-1", kUfm, leaf_spec({"b"})), cached("spine-hn", kUfm, {{"tier", 2}})};
  const auto plan = f.run({});
  EXPECT_EQ(plan.deletes,
            (std::vector<DeleteHyperNode>{{"spine-hn"}, {"leaf-hn-0"}, {"leaf-hn-1"}}));
}

TEST(PlanReconcile, HyperNodesOfOthersAreNeverTouched) {
  Fixture f;
  f.cache = {
      cached("mine", json::object(), leaf_spec({"x"})),  // hand-made
      cached("labelled", {{"volcano.sh/network-topology-source", "label"}}, leaf_spec({"y"})),
      cached("leaf-hn-0", json::object(), leaf_spec({"z"}))};
  const auto plan = f.run({leaf("leaf-hn-0", {"a"})});
  EXPECT_TRUE(plan.deletes.empty());
  EXPECT_TRUE(plan.updates.empty());
  // A hand-made HyperNode of the discovered name is not adopted: the create meets AlreadyExists.
  ASSERT_EQ(plan.creates.size(), 1u);
  EXPECT_EQ(plan.creates[0].hyper_node.name, "leaf-hn-0");
}

TEST(PlanReconcile, ARepeatedDiscoveredNameKeepsItsLastEntry) {
  const Fixture f;
  const auto plan = f.run({leaf("leaf-hn-0", {"a"}), leaf("leaf-hn-0", {"b"})});
  ASSERT_EQ(plan.creates.size(), 1u);
  EXPECT_EQ(plan.creates[0].hyper_node, leaf("leaf-hn-0", {"b"}));
}

TEST(EncodeHyperNode, WritesTheObjectACreateSends) {
  const DesiredHyperNode h{
      .name = "hypernode-a-tier2-bcdfg",
      .labels = {{"volcano.sh/network-topology-source", "label"}, {"tor", "t1"}},
      .tier = 2,
      .tier_name = "tor",
      .members = exact_members({"y", "x", "y"}, "HyperNode")};
  EXPECT_EQ(encode_hyper_node(h), json::parse(R"({
              "apiVersion": "topology.volcano.sh/v1alpha1", "kind": "HyperNode",
              "metadata": {"name": "hypernode-a-tier2-bcdfg",
                           "labels": {"volcano.sh/network-topology-source": "label", "tor": "t1"}},
              "spec": {"tier": 2, "tierName": "tor",
                       "members": [{"type": "HyperNode", "selector": {"exactMatch": {"name": "x"}}},
                                   {"type": "HyperNode", "selector": {"exactMatch": {"name": "y"}}}]}
            })"));
  EXPECT_EQ(encode_hyper_node({.name = "n"})["spec"], json::object());
}

}  // namespace
}  // namespace vc::controllers::hypernode
