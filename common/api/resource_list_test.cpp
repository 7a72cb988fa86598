#include "common/api/resource_list.h"

#include <gtest/gtest.h>

namespace vc::api {
namespace {

using nlohmann::json;

ResourceList list(const char* text) {
  auto parsed = resource_list_from_json(json::parse(text));
  EXPECT_TRUE(parsed.ok()) << parsed.error();
  return parsed.ok() ? *parsed : ResourceList{};
}

std::string dump(const ResourceList& l) {
  return json(l).dump();
}

TEST(ResourceListJson, DecodesObjectsOfStringsAndNumbers) {
  const ResourceList l = list(R"({"cpu":"1.5","memory":"1024Mi","nvidia.com/gpu":2})");
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l.at("cpu").milli_value(), 1500);
  EXPECT_EQ(l.at("memory").value(), 1 << 30);
  EXPECT_EQ(l.at("nvidia.com/gpu").value(), 2);
  EXPECT_EQ(dump(l), R"({"cpu":"1500m","memory":"1Gi","nvidia.com/gpu":"2"})");
}

TEST(ResourceListJson, NullIsEmptyAndOtherTypesAreRejected) {
  auto empty = resource_list_from_json(json(nullptr));
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  auto array = resource_list_from_json(json::parse("[1]"), "spec.minResources");
  ASSERT_FALSE(array.ok());
  EXPECT_EQ(array.error(), "spec.minResources: expected a JSON object of quantities, got array");
}

TEST(ResourceListJson, ErrorsNameTheResourceAsAFieldPath) {
  auto bad =
      resource_list_from_json(json::parse(R"({"cpu":"1","memory":"1 Gi"})"), "spec.minResources");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "spec.minResources[memory]: " + std::string(kQuantityFormatError));
}

TEST(ResourceListJson, NlohmannConversionWorksBothWays) {
  const ResourceList l = json::parse(R"({"cpu":"250m"})").get<ResourceList>();
  EXPECT_EQ(l.at("cpu").to_string(), "250m");
  EXPECT_THROW((void)json::parse(R"({"cpu":"x"})").get<ResourceList>(), json::exception);
}

TEST(ResourceListMath, AddUnitesDimensionsAndSumsShared) {
  const ResourceList sum =
      add(list(R"({"cpu":"500m","memory":"1Gi"})"), list(R"({"cpu":"1.5","pods":"1"})"));
  EXPECT_EQ(dump(sum), R"({"cpu":"2","memory":"1Gi","pods":"1"})");
}

TEST(ResourceListMath, AddToCopiesNewEntriesWithTheirPrintedForm) {
  ResourceList total;
  add_to(total, list(R"({"cpu":"1.441"})"));
  EXPECT_EQ(total.at("cpu").to_string(), "1.441");
  add_to(total, list(R"({"cpu":"1"})"));
  EXPECT_EQ(total.at("cpu").to_string(), "2441m");
}

TEST(ResourceListMath, SubMayGoNegativeAndNegatesMissingMinuend) {
  const ResourceList d =
      sub(list(R"({"cpu":"1","memory":"1Gi"})"), list(R"({"cpu":"1500m","nvidia.com/gpu":"1"})"));
  EXPECT_EQ(dump(d), R"({"cpu":"-500m","memory":"1Gi","nvidia.com/gpu":"-1"})");
}

TEST(ResourceListMath, MultiplyScalesEveryDimensionByReplicas) {
  const ResourceList pod = list(R"({"cpu":"250m","memory":"512Mi"})");
  EXPECT_EQ(dump(multiply(pod, 4)), R"({"cpu":"1","memory":"2Gi"})");
  EXPECT_TRUE(is_zero(multiply(pod, 0)));
  EXPECT_FALSE(is_empty(multiply(pod, 0)));
}

TEST(ResourceListMath, ZeroAndEmptyHelpers) {
  EXPECT_TRUE(is_empty(ResourceList{}));
  EXPECT_TRUE(is_zero(ResourceList{}));
  EXPECT_TRUE(is_zero(list(R"({"cpu":"0","memory":"0Gi"})")));
  EXPECT_FALSE(is_zero(list(R"({"cpu":"0","memory":"1n"})")));
}

TEST(ResourceListCompare, LessEqualWithMissingAsZero) {
  const auto z = MissingDimension::Zero;
  const ResourceList cap = list(R"({"cpu":"4","memory":"8Gi"})");
  EXPECT_TRUE(less_equal(list(R"({"cpu":"4","memory":"8Gi"})"), cap, z));
  EXPECT_TRUE(less_equal(list(R"({"cpu":"3999m"})"), cap, z));
  EXPECT_FALSE(less_equal(list(R"({"cpu":"4001m"})"), cap, z));
  EXPECT_FALSE(less_equal(list(R"({"cpu":"1","nvidia.com/gpu":"1"})"), cap, z))
      << "a gpu request does not fit a capacity without gpus";
  EXPECT_TRUE(less_equal(list(R"({"cpu":"1","nvidia.com/gpu":"0"})"), cap, z));
  EXPECT_TRUE(less_equal(ResourceList{}, cap, z));
  EXPECT_FALSE(less_equal(ResourceList{}, list(R"({"cpu":"-1"})"), z));
  EXPECT_TRUE(less_equal(list(R"({"cpu":"-1"})"), ResourceList{}, z));
}

TEST(ResourceListCompare, LessEqualWithMissingAsUnlimited) {
  const auto u = MissingDimension::Unlimited;
  const ResourceList cap = list(R"({"cpu":"4"})");
  EXPECT_TRUE(less_equal(list(R"({"cpu":"4","memory":"100Gi"})"), list(R"({"cpu":"4"})"), u))
      << "memory is unlimited on the right";
  EXPECT_FALSE(less_equal(list(R"({"cpu":"5"})"), cap, u));
  EXPECT_FALSE(less_equal(list(R"({"memory":"1Gi"})"), list(R"({"cpu":"4","memory":"2Gi"})"), u))
      << "cpu is unlimited on the left, which exceeds 4";
  EXPECT_TRUE(less_equal(ResourceList{}, ResourceList{}, u));
}

TEST(ResourceListDescribe, ListsEntriesInNameOrder) {
  EXPECT_EQ(describe(list(R"({"memory":"1Gi","cpu":"1500m"})")), "cpu: 1500m, memory: 1Gi");
  EXPECT_EQ(describe(ResourceList{}), "<none>");
}

}  // namespace
}  // namespace vc::api
