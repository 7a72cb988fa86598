#include "common/server/address.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace vc::server {
namespace {

TEST(ParseListenAddress, EmptyHostMeansAllInterfaces) {
  const auto a = parse_listen_address(":8080");
  EXPECT_EQ(a.host, "");
  EXPECT_EQ(a.port, 8080);
}

TEST(ParseListenAddress, AcceptsHostsAndPortZero) {
  EXPECT_EQ(parse_listen_address("127.0.0.1:0").host, "127.0.0.1");
  EXPECT_EQ(parse_listen_address("127.0.0.1:0").port, 0);
  EXPECT_EQ(parse_listen_address("localhost:65535").port, 65535);
  EXPECT_EQ(parse_listen_address("[::1]:9090").host, "::1");
  EXPECT_EQ(parse_listen_address("[::1]:9090").port, 9090);
}

TEST(ParseListenAddress, RejectsMalformedAddressesNamingThem) {
  for (const char* bad :
       {"8080", ":", ":99999", ":-1", "host:abc", "::1:80", "[::1:80", "::1]:80", ":80x"}) {
    try {
      parse_listen_address(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

TEST(JoinHostPort, BracketsIpv6HostsAndRoundTrips) {
  EXPECT_EQ(join_host_port("", 8080), ":8080");
  EXPECT_EQ(join_host_port("127.0.0.1", 0), "127.0.0.1:0");
  EXPECT_EQ(join_host_port("::1", 8443), "[::1]:8443");
  for (const char* address : {":8080", "localhost:9090", "[::1]:8080", "0.0.0.0:1"}) {
    const ListenAddress parsed = parse_listen_address(address);
    EXPECT_EQ(join_host_port(parsed.host, parsed.port), address);
  }
}

}  // namespace
}  // namespace vc::server
