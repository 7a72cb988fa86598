#pragma once
// The warning an admit function adds when a rule needs a cluster lookup but the view is offline
// (`vc-webhook-manager check` without a kubeconfig).

#include <string>
#include <string_view>

namespace vc::webhook::scheduling {

inline std::string skipped_offline(std::string_view what) {
  return "skipped " + std::string(what) + ": no cluster access";
}

}  // namespace vc::webhook::scheduling
