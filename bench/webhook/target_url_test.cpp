#include "bench/webhook/target_url.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace vc::bench {
namespace {

TEST(ParseTargetUrl, HostAndPort) {
  const auto u = parse_target_url("https://127.0.0.1:28643");
  EXPECT_EQ(u.host, "127.0.0.1");
  EXPECT_EQ(u.port, 28643);
  EXPECT_EQ(parse_target_url("https://localhost:8443/").port, 8443);
}

TEST(ParseTargetUrl, DefaultPortAndBracketedIpv6) {
  EXPECT_EQ(parse_target_url("https://webhook.example").port, 443);
  const auto v6 = parse_target_url("https://[::1]:9443");
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.port, 9443);
  EXPECT_EQ(parse_target_url("https://[::1]").port, 443);
}

TEST(ParseTargetUrl, RejectsOtherSchemesPathsAndBadPorts) {
  for (const char* bad :
       {"http://127.0.0.1:80", "127.0.0.1:443", "https://h:1/jobs/mutate", "https://h:0",
        "https://h:70000", "https://h:", "https://:443", "https://[::1", "https://h:12x"}) {
    EXPECT_THROW(parse_target_url(bad), std::invalid_argument) << bad;
  }
}

}  // namespace
}  // namespace vc::bench
