#include "webhook/admission/scheduling/resource.h"

#include <gtest/gtest.h>

namespace vc::webhook::scheduling {
namespace {

using nlohmann::json;

Resource resource(const char* text) {
  auto list = api::resource_list_from_json(json::parse(text));
  EXPECT_TRUE(list.ok()) << list.error();
  return Resource::from_list(list.ok() ? *list : api::ResourceList{});
}

TEST(Resource, CountsCpuInMilliMemoryInBytesAndPodsInUnits) {
  const Resource r = resource(R"({"cpu":"1.5","memory":"1Gi","pods":"10"})");
  EXPECT_EQ(r.milli_cpu(), 1500);
  EXPECT_EQ(r.memory(), 1073741824);
  EXPECT_EQ(r.get("pods"), 10);
  EXPECT_EQ(r.to_string(), "cpu 1500.00, memory 1073741824.00, pods 10.00");
}

TEST(Resource, ScalarResourcesAreCountedInMilliUnits) {
  const Resource r = resource(
      R"({"nvidia.com/gpu":"8","ephemeral-storage":"1","hugepages-2Mi":"2",
          "example.kubernetes.io/disk":"3","attachable-volumes-csi":"4"})");
  EXPECT_EQ(r.get("nvidia.com/gpu"), 8000);
  EXPECT_EQ(r.get("ephemeral-storage"), 1000);
  EXPECT_EQ(r.get("hugepages-2Mi"), 2000);
  EXPECT_EQ(r.get("example.kubernetes.io/disk"), 3000);
  EXPECT_EQ(r.get("attachable-volumes-csi"), 4000);
}

TEST(Resource, CountQuotasAndUnknownNativeNamesAreIgnored) {
  const Resource r = resource(R"({"count/pods":"3","storage":"1","requests.example.com/x":"1"})");
  EXPECT_TRUE(r.scalars().empty());
  EXPECT_EQ(r.to_string(), "cpu 0.00, memory 0.00");
}

TEST(Resource, ResourceNamesSkipAmountsBelowOneTenthAndSortScalars) {
  const Resource r = resource(R"({"memory":"0","zz.io/b":"1","aa.io/a":"1","cpu":"1m"})");
  EXPECT_EQ(r.resource_names(), (std::vector<std::string>{"cpu", "aa.io/a", "zz.io/b"}));
  EXPECT_EQ(r.to_string(), "cpu 1.00, memory 0.00, aa.io/a 1000.00, zz.io/b 1000.00");
}

TEST(Resource, AddSumsEveryDimension) {
  Resource total = resource(R"({"cpu":"1","nvidia.com/gpu":"1"})");
  total.add(resource(R"({"cpu":"2","memory":"1Ki","nvidia.com/gpu":"1","x.io/y":"1"})"));
  EXPECT_EQ(total.to_string(),
            "cpu 3000.00, memory 1024.00, nvidia.com/gpu 2000.00, x.io/y 1000.00");
}

TEST(Resource, LessPartlyComparesEachDimension) {
  const Resource parent = resource(R"({"cpu":"4","memory":"4Gi","nvidia.com/gpu":"2"})");
  EXPECT_FALSE(parent.less_partly(resource(R"({"cpu":"4","memory":"4Gi"})")));
  EXPECT_TRUE(parent.less_partly(resource(R"({"cpu":"5"})")));
  EXPECT_TRUE(parent.less_partly(resource(R"({"memory":"5Gi"})")));
  EXPECT_TRUE(parent.less_partly(resource(R"({"nvidia.com/gpu":"3"})")));
  EXPECT_FALSE(parent.less_partly(resource(R"({"nvidia.com/gpu":"2"})")));
}

TEST(Resource, LessPartlyFailsOnAScalarTheParentDoesNotListEvenAtZero) {
  const Resource parent = resource(R"({"cpu":"4"})");
  EXPECT_TRUE(parent.less_partly(resource(R"({"pods":"0"})")));
  EXPECT_FALSE(parent.less_partly(resource(R"({"cpu":"1"})")));
}

TEST(Resource, FormatsCapabilityValuesByResourceType) {
  EXPECT_EQ(format_resource_value("cpu", 20000), "20");
  EXPECT_EQ(format_resource_value("cpu", 1500), "1500m");
  EXPECT_EQ(format_resource_value("memory", 2147483648.0), "2Gi");
  EXPECT_EQ(format_resource_value("memory", 1000), "1k");  // BinarySI below 1Ki prints as DecimalSI
  EXPECT_EQ(format_resource_value("nvidia.com/gpu", 8000), "8000.00");
  EXPECT_EQ(format_resource_value("pods", 10), "10.00");
  // Values beyond int64 clamp rather than wrap.
  EXPECT_EQ(format_resource_value("cpu", 1e30), "9223372036854775807m");
}

TEST(Resource, IntegerResourceNamesAreCountsAndExtendedResources) {
  EXPECT_TRUE(is_integer_resource_name("pods"));
  EXPECT_TRUE(is_integer_resource_name("services.loadbalancers"));
  EXPECT_TRUE(is_integer_resource_name("nvidia.com/gpu"));
  EXPECT_FALSE(is_integer_resource_name("cpu"));
  EXPECT_FALSE(is_integer_resource_name("example.kubernetes.io/x"));
  EXPECT_FALSE(is_integer_resource_name("requests.nvidia.com/gpu"));
  EXPECT_FALSE(is_extended_resource_name("bad name/x"));
}

}  // namespace
}  // namespace vc::webhook::scheduling
