#pragma once
// The --version output of Volcano's binaries (pkg/version), six lines:
//   API Version: v1alpha1
//   Version: 0.1.0
//   Git SHA: Not provided.
//   Built At: Not provided.
//   Go Version: Not provided.
//   Go OS/Arch: linux/amd64
// Our version is VC_VERSION; a build may define VC_GIT_SHA and VC_BUILT_AT. We are not built
// with Go, so "Go Version" reads "Not provided." like any unset build value in Volcano, and
// "Go OS/Arch" names the platform in Go's spelling.
//
// Thread-safety: pure function.

#include <string>

namespace vc::flags {

std::string version_text();

}  // namespace vc::flags
