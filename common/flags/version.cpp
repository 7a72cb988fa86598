#include "common/flags/version.h"

namespace vc::flags {
namespace {

constexpr const char* kNotProvided = "Not provided.";

#ifdef VC_GIT_SHA
constexpr const char* kGitSha = VC_GIT_SHA;
#else
constexpr const char* kGitSha = kNotProvided;
#endif

#ifdef VC_BUILT_AT
constexpr const char* kBuiltAt = VC_BUILT_AT;
#else
constexpr const char* kBuiltAt = kNotProvided;
#endif

// runtime.GOOS/runtime.GOARCH spelling.
constexpr const char* kOsArch =
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

}  // namespace

std::string version_text() {
  return std::string("API Version: v1alpha1\n") + "Version: " + VC_VERSION + "\n" +
         "Git SHA: " + kGitSha + "\n" + "Built At: " + kBuiltAt + "\n" +
         "Go Version: " + kNotProvided + "\n" + "Go OS/Arch: " + kOsArch + "\n";
}

}  // namespace vc::flags
