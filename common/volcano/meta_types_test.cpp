#include "common/volcano/meta_types.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace vc::volcano {
namespace {

using nlohmann::json;
using testing::StrEq;
using testing::ThrowsMessage;

TEST(OwnerRefAt, ReadsEveryMemberAndKeepsUnsetBooleansUnset) {
  const json doc = json::parse(R"({"target": {"apiVersion": "batch.volcano.sh/v1alpha1",
      "kind": "Job", "name": "job1", "uid": "u-1", "controller": true, "extra": 1}})");
  const auto ref = owner_ref_at(doc, "target", FieldPath());
  ASSERT_TRUE(ref.has_value());
  EXPECT_EQ(*ref,
            (api::OwnerRef{"batch.volcano.sh/v1alpha1", "Job", "job1", "u-1", true, std::nullopt}));
  EXPECT_FALSE(owner_ref_at(json::parse(R"({"target": null})"), "target", FieldPath()));
  EXPECT_FALSE(owner_ref_at(json::object(), "target", FieldPath()));
  EXPECT_THAT(
      [] {
        owner_ref_at(json::parse(R"({"target": {"blockOwnerDeletion": "yes"}})"), "target",
                     FieldPath());
      },
      ThrowsMessage<DecodeError>(
          StrEq("target.blockOwnerDeletion: expected a boolean, got string")));
}

TEST(ObjectReferences, DecodeAndEncodeEveryMemberOmittingEmptyOnes) {
  const json doc = json::parse(R"({"active": [
      {"kind": "Job", "namespace": "ns", "name": "c-1", "uid": "u-1",
       "apiVersion": "batch.volcano.sh/v1alpha1", "resourceVersion": "7", "fieldPath": "spec"},
      null]})");
  const auto refs = object_references_at(doc, "active", FieldPath().key("status"));
  ASSERT_EQ(refs.size(), 2u);
  EXPECT_EQ(refs[0],
            (ObjectReference{"Job", "ns", "c-1", "u-1", "batch.volcano.sh/v1alpha1", "7", "spec"}));
  EXPECT_EQ(refs[1], ObjectReference{}) << "a null element is the zero value";
  EXPECT_EQ(encode_object_reference(refs[0]), doc["active"][0]);
  EXPECT_EQ(encode_object_reference({"Job", "", "c-1", "", "", "", ""}),
            json::parse(R"({"kind": "Job", "name": "c-1"})"));
  EXPECT_EQ(encode_object_reference({}), json::object());
}

TEST(Conditions, DecodeAndEncodeInGosShape) {
  const json doc = json::parse(R"({"conditions": [{"type": "Ready", "status": "True",
      "observedGeneration": 3, "lastTransitionTime": "2024-01-02T03:04:05Z",
      "reason": "Synced", "message": "all members found"}]})");
  const auto conditions = conditions_at(doc, "conditions", FieldPath());
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0], (Condition{"Ready", "True", 3, api::parse_time("2024-01-02T03:04:05Z"),
                                      "Synced", "all members found"}));
  EXPECT_EQ(encode_condition(conditions[0]), doc["conditions"][0]);
  // metav1.Condition tags only observedGeneration omitempty; its zero time is null.
  EXPECT_EQ(encode_condition({"Ready", "Unknown", 0, std::nullopt, "", ""}),
            json::parse(R"({"type": "Ready", "status": "Unknown", "lastTransitionTime": null,
                            "reason": "", "message": ""})"));
  EXPECT_THAT(
      [] {
        conditions_at(json::parse(R"({"c": [{"observedGeneration": "3"}]})"), "c",
                      FieldPath().key("status"));
      },
      ThrowsMessage<DecodeError>(
          StrEq("status.c[0].observedGeneration: expected an integer, got string")));
}

TEST(LabelSelectorAt, ReadsLabelsAndExpressionsAsWritten) {
  const json doc = json::parse(R"({"labelMatch": {"matchLabels": {"zone": "a", "rack": null},
      "matchExpressions": [{"key": "tier", "operator": "In", "values": ["1", "2"]},
                           {"key": "gpu", "operator": "Exists"}]}})");
  const auto selector = label_selector_at(doc, "labelMatch", FieldPath());
  ASSERT_TRUE(selector.has_value());
  EXPECT_EQ(selector->match_labels,
            (std::map<std::string, std::string>{{"rack", ""}, {"zone", "a"}}));
  EXPECT_EQ(selector->match_expressions, (std::vector<LabelSelectorRequirement>{
                                             {"tier", "In", {"1", "2"}}, {"gpu", "Exists", {}}}));
  EXPECT_FALSE(label_selector_at(json::object(), "labelMatch", FieldPath()));
  EXPECT_THAT(
      [] {
        label_selector_at(json::parse(R"({"l": {"matchExpressions": [{"values": [1]}]}})"), "l",
                          FieldPath());
      },
      ThrowsMessage<DecodeError>(
          StrEq("l.matchExpressions[0].values[0]: expected a string, got number")));
}

}  // namespace
}  // namespace vc::volcano
