#include "webhook/admission/scheduling/go_decode.h"

#include <gtest/gtest.h>

#include "webhook/admission/scheduling/schemas.h"

namespace vc::webhook::scheduling {
namespace {

using nlohmann::json;

std::string queue_error(const char* text) {
  return go_decode_error(json::parse(text), queue_type());
}

TEST(GoDecode, NullAndValidObjectsDecode) {
  EXPECT_EQ(go_decode_error(json(), queue_type()), "");
  EXPECT_EQ(queue_error(R"({"spec":{"weight":3,"reclaimable":null,"capability":{"cpu":"1"}},
                             "unknownField":[1,2]})"),
            "");
}

TEST(GoDecode, WrongTypeNamesInnermostStructAndFieldPath) {
  EXPECT_EQ(queue_error(R"({"spec":{"weight":"x"}})"),
            "json: cannot unmarshal string into Go struct field QueueSpec.spec.weight of type "
            "int32");
  EXPECT_EQ(queue_error(R"({"spec":"x"})"),
            "json: cannot unmarshal string into Go struct field Queue.spec of type "
            "v1beta1.QueueSpec");
  EXPECT_EQ(queue_error(R"({"metadata":{"labels":{"a":1}}})"),
            "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of "
            "type string");
  EXPECT_EQ(queue_error(R"({"spec":{"reclaimable":"yes"}})"),
            "json: cannot unmarshal string into Go struct field QueueSpec.spec.reclaimable of "
            "type bool");
  EXPECT_EQ(queue_error(R"({"spec":{"extendClusters":[{"weight":true}]}})"),
            "json: cannot unmarshal bool into Go struct field Cluster.spec.extendClusters.weight "
            "of type int32");
  EXPECT_EQ(queue_error(R"({"spec":{"extendClusters":{}}})"),
            "json: cannot unmarshal object into Go struct field QueueSpec.spec.extendClusters of "
            "type []v1beta1.Cluster");
}

TEST(GoDecode, NumbersThatDoNotFitShowTheirText) {
  EXPECT_EQ(queue_error(R"({"spec":{"weight":1.5}})"),
            "json: cannot unmarshal number 1.5 into Go struct field QueueSpec.spec.weight of type "
            "int32");
  EXPECT_EQ(queue_error(R"({"spec":{"weight":99999999999}})"),
            "json: cannot unmarshal number 99999999999 into Go struct field QueueSpec.spec.weight "
            "of type int32");
  EXPECT_EQ(queue_error(R"({"spec":{"weight":18446744073709551615}})"),
            "json: cannot unmarshal number 18446744073709551615 into Go struct field "
            "QueueSpec.spec.weight of type int32");
  EXPECT_EQ(queue_error(R"({"metadata":{"generation":9223372036854775808}})"),
            "json: cannot unmarshal number 9223372036854775808 into Go struct field "
            "ObjectMeta.metadata.generation of type int64");
  EXPECT_EQ(queue_error(R"({"metadata":{"generation":-9223372036854775808}})"), "");
  EXPECT_EQ(queue_error(R"({"spec":{"weight":1e100}})"),
            "json: cannot unmarshal number 1e100 into Go struct field QueueSpec.spec.weight of "
            "type int32");
}

TEST(GoDecode, TopLevelValueThatIsNotAnObject) {
  EXPECT_EQ(go_decode_error(json::array({1}), queue_type()),
            "json: cannot unmarshal array into Go value of type v1beta1.Queue");
  EXPECT_EQ(go_decode_error(json("x"), hypernode_type()),
            "json: cannot unmarshal string into Go value of type v1alpha1.HyperNode");
}

TEST(GoDecode, BadQuantityNamesTheEntry) {
  EXPECT_EQ(queue_error(R"({"spec":{"capability":{"cpu":"1 core"}}})"),
            "spec.capability[cpu]: quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  // A quantity error stops decoding and wins over an earlier type mismatch, as in Go.
  EXPECT_EQ(queue_error(R"({"spec":{"capability":{"cpu":[]},"weight":"x"}})"),
            "spec.capability[cpu]: quantities must be JSON strings or numbers, got array");
}

TEST(GoDecode, ResourceCheckMessageShowsTheGoStruct) {
  EXPECT_EQ(expect_resource_error({"", "v1", "pods"}, kQueuesResource),
            "expect resource to be {scheduling.volcano.sh v1beta1 queues}");
  EXPECT_EQ(expect_resource_error(kQueuesResource, kQueuesResource), "");
}

TEST(GoDecode, SafeReadersReadZeroValuesFromAnything) {
  const json odd =
      json::parse(R"({"spec":[1],"metadata":{"name":7,"annotations":{"a":"b","c":1}}})");
  EXPECT_EQ(go_get_string(odd, {"metadata", "name"}), "");
  EXPECT_EQ(go_get_int(odd, {"spec", "weight"}), 0);
  EXPECT_EQ(go_get_string_map(odd, {"metadata", "annotations"}),
            (std::map<std::string, std::string>{{"a", "b"}}));
  EXPECT_EQ(go_find(json(3), {"x"}), nullptr);
}

}  // namespace
}  // namespace vc::webhook::scheduling
