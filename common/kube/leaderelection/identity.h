#pragma once

#include <string>

namespace vc::kube::leaderelection {

// "<hostname>_<random UUID>": unique per process, readable in `kubectl get lease -o yaml`.
std::string make_identity();

}  // namespace vc::kube::leaderelection
