// label_hyper_nodes on plain nodes and HyperNodes: tiers, grouping, names, reuse.
#include "controllers/hypernode/label_topology.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace vc::controllers::hypernode {
namespace {

using nlohmann::json;

kube::cache::Object node(std::string name, kube::cache::Labels labels) {
  kube::cache::Object n;
  n.name = std::move(name);
  std::sort(labels.begin(), labels.end());
  n.labels = std::move(labels);
  return n;
}

volcano::HyperNode hyper_node(const std::string& name, json labels) {
  volcano::HyperNode h;
  volcano::decode_hyper_node({{"metadata", {{"name", name}, {"labels", labels}}}}, h);
  return h;
}

const std::vector<TopologyType> kA3 = {
    {.name = "topologyA3", .tier_labels = {"volcano.sh/hypernode", "volcano.sh/hypercluster"}}};

struct Fixture {
  std::vector<TopologyType> types = kA3;
  std::vector<kube::cache::Object> nodes;
  std::vector<volcano::HyperNode> hyper_nodes;

  std::vector<DesiredHyperNode> run() const {
    LabelSnapshot s{.types = &types};
    for (const auto& n : nodes) s.nodes.push_back(&n);
    for (const auto& h : hyper_nodes) s.hyper_nodes.push_back(&h);
    auto out = label_hyper_nodes(s);
    EXPECT_TRUE(out.ok()) << out.error();
    return out.ok() ? *out : std::vector<DesiredHyperNode>{};
  }
};

const DesiredHyperNode* find_by_label(const std::vector<DesiredHyperNode>& hs,
                                      const std::string& key, const std::string& value) {
  for (const auto& h : hs) {
    if (auto it = h.labels.find(key); it != h.labels.end() && it->second == value) return &h;
  }
  return nullptr;
}

std::vector<std::string> member_names(const DesiredHyperNode& h) {
  std::vector<std::string> out;
  for (const auto& m : h.members) out.push_back(m.selector.exact_match.value_or("?"));
  return out;
}

TEST(LabelHyperNodes, NodesGroupTierByTier) {
  Fixture f;
  f.nodes = {node("n1", {{"volcano.sh/hypercluster", "c1"}, {"volcano.sh/hypernode", "h1"}}),
             node("n2", {{"volcano.sh/hypercluster", "c1"}, {"volcano.sh/hypernode", "h1"}}),
             node("n3", {{"volcano.sh/hypercluster", "c1"}, {"volcano.sh/hypernode", "h2"}}),
             node("n4", {{"kubernetes.io/hostname", "n4"}})};
  const auto out = f.run();
  ASSERT_EQ(out.size(), 3u);
  const DesiredHyperNode* h1 = find_by_label(out, "volcano.sh/hypernode", "h1");
  const DesiredHyperNode* h2 = find_by_label(out, "volcano.sh/hypernode", "h2");
  const DesiredHyperNode* c1 = find_by_label(out, "volcano.sh/hypercluster", "c1");
  ASSERT_TRUE(h1 && h2 && c1);

  EXPECT_TRUE(h1->name.starts_with("hypernode-topologya3-tier1-"));
  EXPECT_EQ(h1->name.size(), std::string("hypernode-topologya3-tier1-").size() + kSuffixLength);
  EXPECT_EQ(h1->labels,
            (std::map<std::string, std::string>{{"volcano.sh/network-topology-source", "label"},
                                                {"volcano.sh/hypernode", "h1"}}));
  EXPECT_EQ(h1->tier, 1);
  EXPECT_EQ(h1->tier_name, "volcano.sh/hypernode");
  EXPECT_EQ(h1->members, exact_members({"n1", "n2"}, "Node"));
  EXPECT_EQ(h2->members, exact_members({"n3"}, "Node"));

  EXPECT_TRUE(c1->name.starts_with("hypernode-topologya3-tier2-"));
  EXPECT_EQ(c1->tier, 2);
  EXPECT_EQ(c1->tier_name, "volcano.sh/hypercluster");
  EXPECT_EQ(c1->members, exact_members({h1->name, h2->name}, "HyperNode"));
  EXPECT_TRUE(std::is_sorted(out.begin(), out.end(),
                             [](const auto& a, const auto& b) { return a.name < b.name; }));
}

TEST(LabelHyperNodes, AMissingLowerTierLabelStopsTheHigherTiers) {
  Fixture f;
  f.nodes = {node("n1", {{"volcano.sh/hypercluster", "c1"}})};
  EXPECT_TRUE(f.run().empty());
}

TEST(LabelHyperNodes, NoTypesOrNoNodesMeanNoHyperNodes) {
  Fixture f;
  EXPECT_TRUE(f.run().empty());
  f.types.clear();
  f.nodes = {node("n1", {{"volcano.sh/hypernode", "h1"}})};
  EXPECT_TRUE(f.run().empty());
}

TEST(LabelHyperNodes, AnOwnedHyperNodeWithTheLabelKeepsItsName) {
  Fixture f;
  f.nodes = {node("n1", {{"volcano.sh/hypernode", "h1"}})};
  f.hyper_nodes = {
      hyper_node("hypernode-topologya3-tier1-zzzzz",
                 {{"volcano.sh/network-topology-source", "label"}, {"volcano.sh/hypernode", "h1"}}),
      hyper_node(
          "hypernode-topologya3-tier1-bbbbb",
          {{"volcano.sh/network-topology-source", "label"}, {"volcano.sh/hypernode", "h1"}})};
  const auto out = f.run();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].name, "hypernode-topologya3-tier1-bbbbb");  // the first by name
}

TEST(LabelHyperNodes, OnlyOwnedHyperNodesOfTheSameTypeAndTierAreReused) {
  Fixture f;
  f.nodes = {node("n1", {{"volcano.sh/hypernode", "h1"}})};
  const json label = {{"volcano.sh/hypernode", "h1"}};
  json owned = label;
  owned["volcano.sh/network-topology-source"] = "label";
  json other_source = label;
  other_source["volcano.sh/network-topology-source"] = "ufm";
  f.hyper_nodes = {hyper_node("hypernode-topologya3-tier1-aaaaa", label),         // not owned
                   hyper_node("hypernode-topologya3-tier1-ccccc", other_source),  // ufm's
                   hyper_node("hypernode-topologya3-tier2-ddddd", owned),         // another tier
                   hyper_node("hypernode-other-tier1-fffff", owned)};             // another type
  const auto out = f.run();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].name, candidate_name("topologyA3", 1, "volcano.sh/hypernode", "h1", 0));
}

TEST(LabelHyperNodes, NamesAreTheSameWhateverTheNodeOrder) {
  Fixture f;
  f.nodes = {node("b", {{"volcano.sh/hypernode", "h1"}}),
             node("a", {{"volcano.sh/hypernode", "h2"}})};
  const auto first = f.run();
  std::reverse(f.nodes.begin(), f.nodes.end());
  EXPECT_EQ(f.run(), first);
}

TEST(LabelHyperNodes, ANewNameAvoidsEveryExistingHyperNode) {
  Fixture f;
  f.nodes = {node("n1", {{"volcano.sh/hypernode", "h1"}})};
  const std::string first = candidate_name("topologyA3", 1, "volcano.sh/hypernode", "h1", 0);
  f.hyper_nodes = {hyper_node(first, json::object())};  // someone else's
  const auto out = f.run();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].name, candidate_name("topologyA3", 1, "volcano.sh/hypernode", "h1", 1));
}

TEST(LabelHyperNodes, TwentyTakenNamesFailTheRound) {
  Fixture f;
  f.nodes = {node("n1", {{"volcano.sh/hypernode", "h1"}})};
  for (int i = 0; i < kNameAttempts; ++i) {
    f.hyper_nodes.push_back(hyper_node(
        candidate_name("topologyA3", 1, "volcano.sh/hypernode", "h1", i), json::object()));
  }
  LabelSnapshot s{.types = &f.types};
  for (const auto& n : f.nodes) s.nodes.push_back(&n);
  for (const auto& h : f.hyper_nodes) s.hyper_nodes.push_back(&h);
  const auto out = label_hyper_nodes(s);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error(), "unable to get unique hyperNodeName after 20 attempts");
}

TEST(LabelHyperNodes, ALabelSharedByTwoTypesMakesOneHyperNodeNamedByTheFirst) {
  Fixture f;
  f.types = {{.name = "a", .tier_labels = {"tor"}}, {.name = "b", .tier_labels = {"rack", "tor"}}};
  f.nodes = {node("n1", {{"rack", "r1"}, {"tor", "t1"}})};
  const auto out = f.run();
  ASSERT_EQ(out.size(), 2u);
  const DesiredHyperNode* tor = find_by_label(out, "tor", "t1");
  const DesiredHyperNode* rack = find_by_label(out, "rack", "r1");
  ASSERT_TRUE(tor && rack);
  // Type a reached (tor, t1) first: its name and tier; type b's rack HyperNode joins it.
  EXPECT_TRUE(tor->name.starts_with("hypernode-a-tier1-"));
  EXPECT_EQ(tor->tier, 1);
  EXPECT_EQ(member_names(*tor), (std::vector<std::string>{rack->name, "n1"}));
  EXPECT_EQ(tor->members[0].type, "Node");  // a tier-1 HyperNode's members are all typed Node
}

TEST(LabelHyperNodes, ALabelValueUnderTwoParentsJoinsBoth) {
  Fixture f;
  f.nodes = {node("n1", {{"volcano.sh/hypercluster", "c1"}, {"volcano.sh/hypernode", "h1"}}),
             node("n2", {{"volcano.sh/hypercluster", "c2"}, {"volcano.sh/hypernode", "h1"}})};
  const auto out = f.run();
  const DesiredHyperNode* h1 = find_by_label(out, "volcano.sh/hypernode", "h1");
  ASSERT_TRUE(h1);
  EXPECT_EQ(find_by_label(out, "volcano.sh/hypercluster", "c1")->members,
            exact_members({h1->name}, "HyperNode"));
  EXPECT_EQ(find_by_label(out, "volcano.sh/hypercluster", "c2")->members,
            exact_members({h1->name}, "HyperNode"));
}

TEST(CleanTypeName, KeepsLowerCaseLettersDigitsDotsAndDashes) {
  EXPECT_EQ(clean_type_name("Topo_A.b-1 x"), "topo-a.b-1-x");
  EXPECT_EQ(clean_type_name("\xc3\xa9"), "--");  // one '-' per byte of a non-ASCII letter
  EXPECT_EQ(name_prefix("TopologyA2", 3), "hypernode-topologya2-tier3");
}

TEST(CandidateName, UsesTheSuffixAlphabetAndVariesWithItsInputs) {
  const std::string a = candidate_name("t", 1, "k", "v", 0);
  ASSERT_EQ(a.size(), std::string("hypernode-t-tier1-").size() + kSuffixLength);
  for (char c : a.substr(a.size() - kSuffixLength)) {
    EXPECT_NE(kSuffixAlphabet.find(c), std::string_view::npos) << c;
  }
  EXPECT_EQ(a, candidate_name("t", 1, "k", "v", 0));
  EXPECT_NE(a, candidate_name("t", 1, "k", "v", 1));
  EXPECT_NE(a, candidate_name("t", 1, "k", "w", 0));
  EXPECT_NE(candidate_name("t", 1, "ab", "c", 0), candidate_name("t", 1, "a", "bc", 0));
}

}  // namespace
}  // namespace vc::controllers::hypernode
