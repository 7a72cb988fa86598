#include "common/metrics/build_info.h"

#include <gtest/gtest.h>

#include "common/metrics/registry.h"

namespace vc::metrics {
namespace {

TEST(BuildInfo, IsAGaugeOfOneLabelledWithTheBuild) {
  const flags::BuildInfo info{.version = "0.1.0",
                              .git_commit = "0123456789abcdef0123456789abcdef01234567-dirty",
                              .build_date = "2025-06-01T12:00:00Z",
                              .compiler = "gcc 12.2.0",
                              .platform = "linux/amd64"};
  register_build_info("vc-test-manager", info);
  register_build_info("vc-test-manager", info);  // again: still one series
  const std::string text = render_text();
  const std::string series =
      "vc_cpp_build_info{build_date=\"2025-06-01T12:00:00Z\",compiler=\"gcc 12.2.0\","
      "component=\"vc-test-manager\","
      "git_commit=\"0123456789abcdef0123456789abcdef01234567-dirty\",platform=\"linux/amd64\","
      "version=\"0.1.0\"} 1\n";
  EXPECT_NE(text.find("# TYPE vc_cpp_build_info gauge\n"), std::string::npos) << text;
  const auto at = text.find(series);
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_EQ(text.find(series, at + 1), std::string::npos) << text;
}

}  // namespace
}  // namespace vc::metrics
