#pragma once
// vc_cpp_build_info: a gauge of constant 1 whose labels say which build of which binary this
// process runs, for joins in queries and dashboards:
//
//   vc_cpp_build_info{component="vc-controller-manager",version="0.1.0",
//                     git_commit="<sha>[-dirty]",build_date="2025-06-01T12:00:00Z",
//                     compiler="gcc 12.2.0",platform="linux/amd64"} 1
//
// git_commit and build_date are the strings --version prints (common/flags/version.h), "" when
// unknown. Volcano's binaries export no build-info metric (no kubernetes_build_info either).
//
// Thread-safety: may be called from any thread; calling it again with the same values is a no-op.

#include <string_view>

#include "common/flags/version.h"

namespace vc::metrics {

void register_build_info(std::string_view component, const flags::BuildInfo& info);

}  // namespace vc::metrics
