#include "webhook/app/server_version.h"

#include <gtest/gtest.h>

#include "webhook/app/app_test_util.h"

namespace vc::webhook::app {
namespace {

using namespace std::chrono_literals;
using test::json;

TEST(ServerVersion, ParsesMajorMinorAndProviderSuffixes) {
  auto v = parse_server_version({{"major", "1"}, {"minor", "35"}, {"gitVersion", "v1.35.3"}});
  ASSERT_TRUE(v.ok()) << v.error();
  EXPECT_EQ(v->major, 1);
  EXPECT_EQ(v->minor, 35);
  EXPECT_EQ(v->git_version, "v1.35.3");
  auto gke = parse_server_version({{"major", "1"}, {"minor", "33+"}});
  ASSERT_TRUE(gke.ok());
  EXPECT_EQ(gke->minor, 33);
  EXPECT_FALSE(parse_server_version({{"major", "1"}}).ok());
  EXPECT_FALSE(parse_server_version(json::array()).ok());
}

TEST(ServerVersion, PodLevelResourcesIsOnFromKubernetes134) {
  EXPECT_FALSE(pod_level_resources_default({1, 31, ""}));
  EXPECT_FALSE(pod_level_resources_default({1, 33, ""}));
  EXPECT_TRUE(pod_level_resources_default({1, 34, ""}));
  EXPECT_TRUE(pod_level_resources_default({1, 35, ""}));
  EXPECT_TRUE(pod_level_resources_default({2, 0, ""}));
}

TEST(ServerVersion, IsReadFromTheApiServer) {
  vc::testing::FakeApiServer server;
  test::serve_version(server, "33");
  auto v = get_server_version(server.config(), "test/1", 5s);
  ASSERT_TRUE(v.ok()) << v.error();
  EXPECT_EQ(v->minor, 33);
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].header("user-agent"), "test/1");
}

TEST(ServerVersion, ErrorsSayWhatFailed) {
  vc::testing::FakeApiServer server;
  server.handle("GET", "/version", [](const test::Request&) {
    return test::Response::error(401, "Unauthorized", "Unauthorized");
  });
  auto v = get_server_version(server.config(), "test/1", 5s);
  ASSERT_FALSE(v.ok());
  EXPECT_TRUE(v.error().starts_with("GET /version: ")) << v.error();
  EXPECT_NE(v.error().find("Unauthorized"), std::string::npos) << v.error();
}

}  // namespace
}  // namespace vc::webhook::app
