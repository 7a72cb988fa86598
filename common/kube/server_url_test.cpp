#include <gtest/gtest.h>

#include "common/kube/config.h"
#include "common/kube/server_url.h"

namespace vc::kube {
namespace {

TEST(ServerUrl, HttpsWithPort) {
  auto u = parse_server_url("https://10.0.0.1:6443");
  EXPECT_TRUE(u.tls);
  EXPECT_EQ(u.host, "10.0.0.1");
  EXPECT_EQ(u.port, "6443");
  EXPECT_EQ(u.host_header, "10.0.0.1:6443");
  EXPECT_EQ(u.base_path, "");
}

TEST(ServerUrl, DefaultPortsAndPathPrefix) {
  auto u = parse_server_url("https://rancher.example/k8s/clusters/c-1/");
  EXPECT_EQ(u.port, "443");
  EXPECT_EQ(u.host, "rancher.example");
  EXPECT_EQ(u.base_path, "/k8s/clusters/c-1");
  EXPECT_EQ(parse_server_url("http://localhost").port, "80");
  EXPECT_FALSE(parse_server_url("http://localhost").tls);
}

TEST(ServerUrl, Ipv6LiteralsAreBracketedInTheHostHeader) {
  auto u = parse_server_url("https://[fd00::1]:443");
  EXPECT_EQ(u.host, "fd00::1");
  EXPECT_EQ(u.host_header, "[fd00::1]:443");
  EXPECT_TRUE(is_ip_literal(u.host));
  EXPECT_TRUE(is_ip_literal("127.0.0.1"));
  EXPECT_FALSE(is_ip_literal("kubernetes.default.svc"));
}

TEST(ServerUrl, BadUrlsAreConfigErrorsNamingTheUrl) {
  for (const char* bad : {"ftp://h", "https://", "https://h:port", "https://[::1"}) {
    try {
      parse_server_url(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace vc::kube
