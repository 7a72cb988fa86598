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

// Whether the failure says nothing about the object the request was about: the API server or
// the path to it was unwell (any 5xx, including the 500 InternalError "failed calling webhook" of
// another admission webhook that is down; 429; server or client timeouts; connection and TLS
// failures), or the call was cancelled by our side (leadership lost). The same request may
// succeed later unchanged. 4xx answers (400, 403, 404, 409, 410, 422) are about the request and
// are not transient. A controller retries transient failures without end and does not count
// them toward --max-requeue-num (controllers/framework/retry_policy.h).
bool is_transient(const ApiError& e);

}  // namespace vc::kube
