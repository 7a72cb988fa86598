#include <gtest/gtest.h>

#include "common/kube/resource.h"
#include "common/kube/url.h"

namespace vc::kube {
namespace {

TEST(Resource, CoreGroupPaths) {
  EXPECT_EQ(resources::pods.api_version(), "v1");
  EXPECT_EQ(resources::pods.base_path(), "/api/v1");
  EXPECT_EQ(resources::pods.path("default"), "/api/v1/namespaces/default/pods");
  EXPECT_EQ(resources::pods.path(""), "/api/v1/pods");
  EXPECT_EQ(resources::pods.path("ns", "p1"), "/api/v1/namespaces/ns/pods/p1");
  EXPECT_EQ(resources::pods.path("ns", "p1", "status"), "/api/v1/namespaces/ns/pods/p1/status");
  EXPECT_EQ(resources::pods.qualified(), "pods");
}

TEST(Resource, NamedGroupPaths) {
  EXPECT_EQ(resources::podgroups.api_version(), "scheduling.volcano.sh/v1beta1");
  EXPECT_EQ(resources::podgroups.path("ns", "pg"),
            "/apis/scheduling.volcano.sh/v1beta1/namespaces/ns/podgroups/pg");
  EXPECT_EQ(resources::podgroups.qualified(), "podgroups.scheduling.volcano.sh");
}

TEST(Resource, ClusterScopedIgnoresNamespace) {
  EXPECT_EQ(resources::queues.path("ignored", "default"),
            "/apis/scheduling.volcano.sh/v1beta1/queues/default");
  EXPECT_EQ(resources::nodes.path("", "n1"), "/api/v1/nodes/n1");
}

TEST(Resource, NamesAreEscapedSoTheyCannotAddPathSegments) {
  EXPECT_EQ(resources::configmaps.path("ns", "a/b c"),
            "/api/v1/namespaces/ns/configmaps/a%2Fb%20c");
  EXPECT_EQ(resources::configmaps.path("ns", "..", ""), "/api/v1/namespaces/ns/configmaps/..");
  EXPECT_EQ(resources::configmaps.path("n?s", "x"), "/api/v1/namespaces/n%3Fs/configmaps/x");
}

TEST(Url, QueryEscapingRoundTrips) {
  const std::string selector = "app=x,tier in (a,b),!gone";
  const std::string escaped = escape_query(selector);
  EXPECT_EQ(escaped, "app%3Dx%2Ctier%20in%20%28a%2Cb%29%2C%21gone");
  EXPECT_EQ(unescape(escaped), selector);
  EXPECT_EQ(unescape("a+b", true), "a b");
  EXPECT_EQ(unescape("a+b"), "a+b");
  EXPECT_EQ(unescape("100%"), "100%");
  EXPECT_EQ(unescape("%zz"), "%zz");
}

TEST(Url, QueryStringSkipsEmptyValues) {
  EXPECT_EQ(query_string({{"a", ""}, {"b", ""}}), "");
  EXPECT_EQ(query_string({{"limit", "500"}, {"continue", ""}, {"labelSelector", "a=b"}}),
            "?limit=500&labelSelector=a%3Db");
}

}  // namespace
}  // namespace vc::kube
