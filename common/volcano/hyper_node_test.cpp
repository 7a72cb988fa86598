#include "common/volcano/hyper_node.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace vc::volcano {
namespace {

using nlohmann::json;
using testing::StrEq;
using testing::ThrowsMessage;

json spine() {
  return json::parse(R"({
    "apiVersion": "topology.volcano.sh/v1alpha1",
    "kind": "HyperNode",
    "metadata": {"name": "s0", "uid": "hn-1", "labels": {"tier": "2"}},
    "spec": {
      "tier": 2,
      "tierName": "spine",
      "members": [
        {"type": "HyperNode", "selector": {"exactMatch": {"name": "leaf0"}}},
        {"type": "Node", "selector": {"regexMatch": {"pattern": "^gpu-[0-9]+$"}}},
        {"type": "Node", "selector": {"labelMatch": {
          "matchLabels": {"rack": "r1"},
          "matchExpressions": [{"key": "gpu", "operator": "In", "values": ["a100", "h100"]}]}}}
      ]
    },
    "status": {
      "conditions": [{"type": "Ready", "status": "True", "observedGeneration": 2,
                      "lastTransitionTime": "2024-03-17T01:00:00Z", "reason": "MembersFound",
                      "message": "3 members"}],
      "nodeCount": 5
    }
  })");
}

TEST(DecodeHyperNode, ReadsTierAndEveryKindOfMemberSelector) {
  HyperNode hn;
  decode_hyper_node(spine(), hn);
  EXPECT_EQ(hn.name, "s0");
  EXPECT_TRUE(hn.namespace_.empty()) << "cluster-scoped";
  EXPECT_EQ(hn.spec.tier, 2);
  EXPECT_EQ(hn.spec.tier_name, "spine");
  ASSERT_EQ(hn.spec.members.size(), 3u);
  EXPECT_FALSE(hn.spec.members_null);
  EXPECT_EQ(hn.spec.members[0],
            (HyperNodeMember{member_type::kHyperNode, {"leaf0", std::nullopt, std::nullopt}}));
  EXPECT_EQ(hn.spec.members[1],
            (HyperNodeMember{member_type::kNode, {std::nullopt, "^gpu-[0-9]+$", std::nullopt}}));
  const MemberSelector& labels = hn.spec.members[2].selector;
  EXPECT_FALSE(labels.exact_match.has_value());
  EXPECT_FALSE(labels.regex_match.has_value());
  ASSERT_TRUE(labels.label_match.has_value());
  EXPECT_EQ(*labels.label_match,
            (LabelSelector{{{"rack", "r1"}}, {{"gpu", "In", {"a100", "h100"}}}}));
  ASSERT_EQ(hn.status.conditions.size(), 1u);
  EXPECT_EQ(hn.status.conditions[0].reason, "MembersFound");
  EXPECT_EQ(hn.status.node_count, 5);
}

TEST(DecodeHyperNode, AnEmptyMatchObjectIsSetWithAnEmptyValue) {
  HyperNode hn;
  decode_hyper_node(json::parse(R"({"spec": {"members": [{"selector": {"exactMatch": {}}}]}})"),
                    hn);
  ASSERT_EQ(hn.spec.members.size(), 1u);
  EXPECT_EQ(hn.spec.members[0].selector.exact_match, "");
  EXPECT_FALSE(hn.spec.members[0].selector.label_match.has_value());
}

TEST(DecodeHyperNode, ErrorsNameTheField) {
  json doc = spine();
  doc["spec"]["members"][2]["selector"]["labelMatch"]["matchLabels"]["rack"] = 1;
  EXPECT_THAT(
      [&] {
        HyperNode hn;
        decode_hyper_node(doc, hn);
      },
      ThrowsMessage<DecodeError>(StrEq(
          "spec.members[2].selector.labelMatch.matchLabels[rack]: expected a string, got number")));
  doc = spine();
  doc["spec"]["tier"] = "2";
  EXPECT_THAT(
      [&] {
        HyperNode hn;
        decode_hyper_node(doc, hn);
      },
      ThrowsMessage<DecodeError>(StrEq("spec.tier: expected an integer, got string")));
}

// As printed by Go's encoding/json for topology/v1alpha1 HyperNodeStatus: conditions and nodeCount
// are omitempty; a metav1.Condition writes all but observedGeneration even when empty.
// Go's nil slice (absent or null) and empty slice stay apart.
TEST(DecodeHyperNode, MembersNullIsNotMembersEmpty) {
  for (const char* doc : {R"({})", R"({"spec": {}})", R"({"spec": {"members": null}})"}) {
    HyperNode hn;
    decode_hyper_node(json::parse(doc), hn);
    EXPECT_TRUE(hn.spec.members_null) << doc;
  }
  HyperNode empty;
  decode_hyper_node(json::parse(R"({"spec": {"members": []}})"), empty);
  EXPECT_FALSE(empty.spec.members_null);
  EXPECT_TRUE(empty.spec.members.empty());
}

TEST(EncodeHyperNodeStatus, MatchesGo) {
  EXPECT_EQ(encode_hyper_node_status(HyperNodeStatus{}), json::object());
  HyperNodeStatus not_ready;
  not_ready.conditions = {{"Ready", "False", 0, std::nullopt, "", ""}};
  EXPECT_EQ(encode_hyper_node_status(not_ready),
            json::parse(R"({"conditions": [{"type": "Ready", "status": "False",
                            "lastTransitionTime": null, "reason": "", "message": ""}]})"));
  HyperNode hn;
  decode_hyper_node(spine(), hn);
  EXPECT_EQ(encode_hyper_node_status(hn.status), spine()["status"]);
}

}  // namespace
}  // namespace vc::volcano
