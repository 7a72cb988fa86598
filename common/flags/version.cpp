#include "common/flags/version.h"

namespace vc::flags {
namespace {

constexpr std::string_view kNotProvided = "Not provided.";

std::string or_not_provided(std::string_view value) {
  return std::string(value.empty() ? kNotProvided : value);
}

}  // namespace

std::string_view compiler_name() {
#if defined(__clang__)
  constexpr std::string_view kName = "clang " __clang_version__;  // ends with a space
  return kName.substr(0, kName.find_last_not_of(' ') + 1);
#elif defined(__GNUC__)
  return "gcc " __VERSION__;
#else
  return "unknown";
#endif
}

std::string_view platform_name() {
  // runtime.GOOS/runtime.GOARCH spelling.
  return
#if defined(__linux__)
      "linux/"
#elif defined(__APPLE__)
      "darwin/"
#else
      "unknown/"
#endif
#if defined(__x86_64__)
      "amd64";
#elif defined(__aarch64__)
      "arm64";
#elif defined(__powerpc64__)
      "ppc64le";
#elif defined(__s390x__)
      "s390x";
#else
      "unknown";
#endif
}

std::string version_text(const BuildInfo& info) {
  return "API Version: v1alpha1\nVersion: " + or_not_provided(info.version) +
         "\nGit SHA: " + or_not_provided(info.git_commit) +
         "\nBuilt At: " + or_not_provided(info.build_date) +
         "\nGo Version: " + std::string(kNotProvided) +
         "\nGo OS/Arch: " + std::string(info.platform) + "\n";
}

}  // namespace vc::flags
