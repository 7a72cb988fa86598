#include "webhook/admission/pods/resource_groups.h"

#include <gtest/gtest.h>

namespace vc::webhook::pods {
namespace {

ResourceGroup group(std::string name, std::string key, std::vector<std::string> values) {
  ResourceGroup g;
  g.resource_group = std::move(name);
  g.object_key = std::move(key);
  g.object_values = std::move(values);
  return g;
}

using Annotations = std::map<std::string, std::string>;

TEST(ResourceGroups, NamespaceGroupsMatchListedNamespaces) {
  const auto g = group("mng", "namespace", {"a", "b"});
  EXPECT_TRUE(pod_in_group(g, "b", {}));
  EXPECT_FALSE(pod_in_group(g, "c", {{"volcano.sh/resource-group", "mng"}}));
}

TEST(ResourceGroups, AnnotationValuesAreYamlMapsMergedFirstNonEmptyWins) {
  const auto g = group(
      "gpu", "annotation",
      {"team: a", "not: [a, map]", "- list", "{broken", "team: b\nrole: ~", "role: worker", ""});
  EXPECT_EQ(group_annotations(g), (Annotations{{"role", "worker"}, {"team", "a"}}));
}

TEST(ResourceGroups, AnnotationGroupsMatchAnySelectedAnnotation) {
  const auto g = group("gpu", "annotation", {"team: a\nrole: worker"});
  EXPECT_TRUE(pod_in_group(g, "ns", {{"role", "worker"}}));
  EXPECT_TRUE(pod_in_group(g, "ns", {{"team", "a"}, {"role", "ps"}}));
  EXPECT_FALSE(pod_in_group(g, "ns", {{"team", "b"}}));
  // The group's own name annotation counts only for an empty key.
  EXPECT_FALSE(pod_in_group(g, "ns", {{"volcano.sh/resource-group", "gpu"}}));
}

TEST(ResourceGroups, EmptyValueMatchesPodsWithoutTheAnnotation) {
  const auto g = group("gpu", "annotation", {"team: ''"});
  EXPECT_TRUE(pod_in_group(g, "ns", {}));
  EXPECT_FALSE(pod_in_group(g, "ns", {{"team", "x"}}));
}

TEST(ResourceGroups, EmptyKeyAlsoMatchesTheResourceGroupAnnotation) {
  EXPECT_TRUE(pod_in_group(group("gpu", "", {}), "ns", {{"volcano.sh/resource-group", "gpu"}}));
  EXPECT_FALSE(pod_in_group(group("gpu", "", {}), "ns", {{"volcano.sh/resource-group", "cpu"}}));
  // An unnamed group matches every pod without the annotation.
  EXPECT_TRUE(pod_in_group(group("", "", {}), "ns", {}));
}

TEST(ResourceGroups, UnknownKeysNeverMatch) {
  EXPECT_FALSE(pod_in_group(group("", "label", {"a: b"}), "ns", {{"a", "b"}}));
}

}  // namespace
}  // namespace vc::webhook::pods
