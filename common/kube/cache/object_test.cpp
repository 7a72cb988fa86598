#include "common/kube/cache/object.h"

#include <gtest/gtest.h>

namespace vc::kube::cache {
namespace {

using nlohmann::json;

json pod() {
  return json::parse(R"({
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {
      "name": "web-0", "namespace": "prod", "uid": "u-1", "resourceVersion": "42",
      "labels": {"zeta": "z", "app": "web", "tier": "front"},
      "managedFields": [{"manager": "kubectl", "fieldsV1": {"f:spec": {}}}]
    },
    "spec": {"nodeName": "n1"}
  })");
}

TEST(Object, KeyIsNamespaceSlashNameOrJustNameWhenClusterScoped) {
  Object o;
  o.name = "n";
  EXPECT_EQ(o.key(), "n");
  o.namespace_ = "ns";
  EXPECT_EQ(o.key(), "ns/n");
  EXPECT_EQ(split_key("ns/n"), std::make_pair(std::string_view("ns"), std::string_view("n")));
  EXPECT_EQ(split_key("n"), std::make_pair(std::string_view(), std::string_view("n")));
}

TEST(Object, JsonTransformStripsManagedFieldsAndReadsMetadata) {
  ObjectPtr obj = json_transform(pod());
  ASSERT_TRUE(obj);
  EXPECT_EQ(obj->namespace_, "prod");
  EXPECT_EQ(obj->name, "web-0");
  EXPECT_EQ(obj->uid, "u-1");
  EXPECT_EQ(obj->resource_version, "42");
  const auto* j = dynamic_cast<const JsonObject*>(obj.get());
  ASSERT_TRUE(j);
  EXPECT_FALSE(j->json["metadata"].contains("managedFields"));
  EXPECT_EQ(j->json["spec"]["nodeName"], "n1");
}

TEST(Object, LabelsAreSortedAndLookedUpByKey) {
  ObjectPtr obj = json_transform(pod());
  ASSERT_EQ(obj->labels.size(), 3u);
  EXPECT_EQ(obj->labels[0].first, "app");
  EXPECT_EQ(obj->labels[2].first, "zeta");
  ASSERT_TRUE(obj->label("tier"));
  EXPECT_EQ(*obj->label("tier"), "front");
  EXPECT_EQ(obj->label("missing"), nullptr);
}

TEST(Object, MetadataOfTheWrongTypeThrows) {
  json bad = pod();
  bad["metadata"]["name"] = 7;
  EXPECT_THROW(json_transform(std::move(bad)), json::type_error);
}

TEST(Object, ObjectWithoutMetadataHasEmptyFields) {
  ObjectPtr obj = json_transform(json::object());
  EXPECT_TRUE(obj->name.empty());
  EXPECT_TRUE(obj->labels.empty());
}

}  // namespace
}  // namespace vc::kube::cache
