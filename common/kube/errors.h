#pragma once
// Helpers around ApiError (declared in result.h) for code that already holds a decoded
// metav1.Status, e.g. the object of a watch ERROR event, and for client-side failures.
//
// Thread-safety: pure functions.

#include <string>

#include <nlohmann/json.hpp>

#include "common/kube/result.h"

namespace vc::kube {

// Decodes a metav1.Status object (code, reason, message, details). A status without a code is
// classified by its reason alone.
ApiError error_from_status(const nlohmann::json& status, int http_status = 0);

// The client-side deadline expired before the exchange finished.
ApiError timeout_error(std::string message);
// The caller asked to stop.
ApiError cancelled_error(std::string message);

}  // namespace vc::kube
