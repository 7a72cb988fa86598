#pragma once
// Which build this binary is, and the --version output of Volcano's binaries (pkg/version), six
// lines:
//   API Version: v1alpha1
//   Version: 0.1.0
//   Git SHA: 3f2c...e91a-dirty
//   Built At: 2025-06-01T12:00:00Z
//   Go Version: Not provided.
//   Go OS/Arch: linux/amd64
// An unknown value prints "Not provided." as an unset build value does in Volcano; we are not
// built with Go, so "Go Version" always does, and "Go OS/Arch" names the platform in Go's
// spelling. The same BuildInfo labels the vc_cpp_build_info gauge (common/metrics/build_info.h).
//
// build_info() is defined in a translation unit generated at build time
// (common/flags/version_stamp.cmake, library vc_build_info): only the binaries and the tests that
// print or export the version link it, so a new commit relinks those and nothing else.
//
// Thread-safety: every function may be called from any thread.

#include <string>
#include <string_view>

namespace vc::flags {

struct BuildInfo {
  std::string_view version;     // the project version, "0.1.0"
  std::string_view git_commit;  // full SHA, "-dirty" when the tree had changes; "" = unknown
  std::string_view build_date;  // RFC 3339 UTC, "2025-06-01T12:00:00Z"; "" = unknown
  std::string_view compiler;    // "gcc 12.2.0"
  std::string_view platform;    // GOOS/GOARCH spelling, "linux/amd64"
};

// This binary's build (vc_build_info).
const BuildInfo& build_info();

// The compiler and platform of this build, for BuildInfo.
std::string_view compiler_name();
std::string_view platform_name();

// The six lines above, for a given build.
std::string version_text(const BuildInfo& info);
// This binary's (needs vc_build_info).
inline std::string version_text() {
  return version_text(build_info());
}

}  // namespace vc::flags
