// The write plan: create, the update threshold, and stale NodeShards.
#include "controllers/sharding/plan.h"

#include <gtest/gtest.h>

namespace vc::controllers::sharding {
namespace {

using nlohmann::json;
using Names = std::vector<std::string>;

TEST(Plan, CreatesAMissingShard) {
  const auto w = plan_shard("volcano", {"n1", "n2"}, nullptr);
  EXPECT_EQ(w.kind, ShardWrite::Kind::Create);
  EXPECT_EQ(w.object, json::parse(R"({"apiVersion":"shard.volcano.sh/v1alpha1","kind":"NodeShard",
      "metadata":{"name":"volcano"},"spec":{"nodesDesired":["n1","n2"]}})"));
  // An empty assignment is an empty list, not a missing field.
  EXPECT_EQ(plan_shard("x", {}, nullptr).object["spec"]["nodesDesired"], json::array());
}

TEST(Plan, UpdatesTheCachedObjectWhenTheCountDiffers) {
  const json cached = json::parse(R"({"metadata":{"name":"a","resourceVersion":"7",
      "labels":{"k":"v"}},"spec":{"nodesDesired":["n1"]},"status":{"nodesInUse":["n1"]}})");
  const auto w = plan_shard("a", {"n1", "n2"}, &cached);
  EXPECT_EQ(w.kind, ShardWrite::Kind::Update);
  json want = cached;
  want["spec"]["nodesDesired"] = {"n1", "n2"};
  EXPECT_EQ(w.object, want);
}

TEST(Plan, SameCountNeedsTenPercentNewNodes) {
  EXPECT_FALSE(needs_update({"a", "b"}, {"b", "a"}));  // order alone is no change
  EXPECT_TRUE(needs_update({"a", "b"}, {"a", "c"}));   // threshold max(1, 0) = 1
  Names current, desired;
  for (int i = 0; i < 20; ++i) current.push_back("n" + std::to_string(i));
  desired = current;
  desired[0] = "x0";  // 1 new of 20: below max(1, 2)
  EXPECT_FALSE(needs_update(current, desired));
  desired[1] = "x1";  // 2 new: written
  EXPECT_TRUE(needs_update(current, desired));
}

TEST(Plan, StaleShardsAreTheUnconfiguredOnes) {
  EXPECT_EQ(stale_shards({"a", "old", "b"}, {"b", "a"}), (Names{"old"}));
  EXPECT_EQ(nodes_desired(json::parse(R"({"spec":{"nodesDesired":["x",1]}})")), (Names{"x"}));
  EXPECT_TRUE(nodes_desired(json::object()).empty());
}

}  // namespace
}  // namespace vc::controllers::sharding
