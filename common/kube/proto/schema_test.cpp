#include "common/kube/proto/schema.h"

#include <gtest/gtest.h>

#include "common/kube/proto/wire.h"

namespace vc::kube::proto {
namespace {

TEST(KubeProtoSchema, EmbeddedSchemaHasTheCoreTypes) {
  const Schema& s = k8s_schema();
  EXPECT_GT(s.size(), 200u);
  for (const char* name :
       {"k8s.io.api.core.v1.Pod", "k8s.io.api.core.v1.PodList", "k8s.io.api.core.v1.Node",
        "k8s.io.api.core.v1.Event", "k8s.io.api.coordination.v1.Lease",
        "k8s.io.api.events.v1.Event", "k8s.io.apimachinery.pkg.apis.meta.v1.Status",
        "k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent"})
    EXPECT_NE(s.find(name), nullptr) << name;
  EXPECT_EQ(s.find("k8s.io.api.core.v1.NoSuchThing"), nullptr);
}

TEST(KubeProtoSchema, FieldsResolveToTheirTypes) {
  const Message* pod = k8s_schema().find("k8s.io.api.core.v1.Pod");
  ASSERT_NE(pod, nullptr);
  const Field* spec = pod->by_name("spec");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->number, 2u);
  EXPECT_EQ(spec->type, FieldType::Message);
  ASSERT_NE(spec->message, nullptr);
  EXPECT_EQ(spec->message->full_name, "k8s.io.api.core.v1.PodSpec");
  const Field* containers = spec->message->by_name("containers");
  ASSERT_NE(containers, nullptr);
  EXPECT_TRUE(containers->repeated);
  EXPECT_FALSE(containers->is_map());
  EXPECT_EQ(spec->message->by_number(containers->number), containers);
  const Field* node_selector = spec->message->by_name("nodeSelector");
  ASSERT_NE(node_selector, nullptr);
  EXPECT_TRUE(node_selector->is_map());
}

TEST(KubeProtoSchema, KubernetesJsonShapesAndInlineFields) {
  const Schema& s = k8s_schema();
  EXPECT_EQ(s.find("k8s.io.apimachinery.pkg.apis.meta.v1.Time")->shape, JsonShape::Time);
  EXPECT_EQ(s.find("k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime")->shape, JsonShape::MicroTime);
  EXPECT_EQ(s.find("k8s.io.apimachinery.pkg.api.resource.Quantity")->shape, JsonShape::Quantity);
  EXPECT_EQ(s.find("k8s.io.apimachinery.pkg.util.intstr.IntOrString")->shape,
            JsonShape::IntOrString);
  EXPECT_EQ(s.find("k8s.io.apimachinery.pkg.runtime.RawExtension")->shape, JsonShape::RawJson);
  EXPECT_EQ(s.find("k8s.io.api.core.v1.PodSpec")->shape, JsonShape::Object);
  EXPECT_TRUE(s.find("k8s.io.api.core.v1.Volume")->by_name("volumeSource")->inline_json);
  EXPECT_TRUE(s.find("k8s.io.api.core.v1.Probe")->by_name("handler")->inline_json);
  EXPECT_TRUE(s.find("k8s.io.api.core.v1.EphemeralContainer")
                  ->by_name("ephemeralContainerCommon")
                  ->inline_json);
  EXPECT_TRUE(
      s.find("k8s.io.api.core.v1.SecretEnvSource")->by_name("localObjectReference")->inline_json);
  // The same message type in an ordinary member is not inline.
  EXPECT_FALSE(s.find("k8s.io.api.core.v1.PodSpec")->by_name("imagePullSecrets")->inline_json);
}

TEST(KubeProtoSchema, MalformedDescriptorSetsAreErrors) {
  EXPECT_FALSE(Schema::parse(std::string("\x0a\x05\x12\x03", 4)));  // truncated file
  // A field whose type is not in the set.
  WireWriter field, msg, file, set;
  field.bytes(1, "x");
  field.varint(3, 1);
  field.varint(5, 11);  // TYPE_MESSAGE
  field.bytes(6, ".Nope");
  msg.bytes(1, "M");
  msg.bytes(2, field.data());
  file.bytes(2, "p");
  file.bytes(4, msg.data());
  set.bytes(1, file.data());
  auto parsed = Schema::parse(set.data());
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.error().find("p.M.x has the unknown type .Nope"), std::string::npos)
      << parsed.error();
  // An empty set is an empty schema, not an error.
  auto empty = Schema::parse("");
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->size(), 0u);
}

}  // namespace
}  // namespace vc::kube::proto
