#include "common/flags/version.h"

#include <regex>
#include <string>

#include <gtest/gtest.h>

namespace vc::flags {
namespace {

constexpr BuildInfo kBuild{.version = "0.1.0",
                           .git_commit = "0123456789abcdef0123456789abcdef01234567-dirty",
                           .build_date = "2025-06-01T12:00:00Z",
                           .compiler = "gcc 12.2.0",
                           .platform = "linux/amd64"};

TEST(Version, PrintsSixVolcanoStyleLines) {
  EXPECT_EQ(version_text(kBuild),
            "API Version: v1alpha1\n"
            "Version: 0.1.0\n"
            "Git SHA: 0123456789abcdef0123456789abcdef01234567-dirty\n"
            "Built At: 2025-06-01T12:00:00Z\n"
            "Go Version: Not provided.\n"
            "Go OS/Arch: linux/amd64\n");
}

TEST(Version, UnknownValuesReadNotProvidedAsInVolcano) {
  BuildInfo info = kBuild;
  info.git_commit = "";
  info.build_date = "";
  const std::string text = version_text(info);
  EXPECT_NE(text.find("\nGit SHA: Not provided.\nBuilt At: Not provided.\n"), std::string::npos)
      << text;
}

TEST(Version, ThisBuildHasAStampedDateAndItsOwnCompiler) {
  const BuildInfo& info = build_info();
  EXPECT_EQ(info.version, VC_VERSION);
  // The stamp always has a date: an override, SOURCE_DATE_EPOCH or the first build's time.
  EXPECT_TRUE(std::regex_match(std::string(info.build_date),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")))
      << info.build_date;
  EXPECT_TRUE(info.compiler.starts_with("gcc ") || info.compiler.starts_with("clang "))
      << info.compiler;
  EXPECT_TRUE(info.platform.starts_with("linux/")) << info.platform;
  EXPECT_EQ(version_text(), version_text(info));
}

}  // namespace
}  // namespace vc::flags
