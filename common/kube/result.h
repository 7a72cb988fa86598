#pragma once
// Result<T>: a value or a typed Kubernetes API error, i.e. api::Expected<T, ApiError>
// (common/api/expected.h). Every call that talks to the network returns one; exceptions are kept
// for programmer errors and start-up configuration mistakes.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/api/expected.h"

namespace vc::kube {

enum class ErrorKind {
  BadRequest,          // 400 without a more specific reason
  Unauthorized,        // 401
  Forbidden,           // 403
  NotFound,            // 404
  MethodNotAllowed,    // 405
  AlreadyExists,       // 409 reason AlreadyExists
  Conflict,            // 409 otherwise (resourceVersion or precondition mismatch)
  Gone,                // 410 Gone / reason Expired: the resourceVersion is too old, relist
  Invalid,             // 422 with field causes
  TooManyRequests,     // 429, honour retry_after
  InternalError,       // 500, retryable
  ServiceUnavailable,  // 503, retryable
  ServerTimeout,       // 504 or reason ServerTimeout / Timeout, retryable
  Transport,           // connection, TLS or protocol failure before a status was read; retryable
  Timeout,             // the client-side deadline expired; retryable
  Cancelled,           // the caller asked to stop
  Other,               // any other status
};

const char* to_string(ErrorKind kind);

// The cause the API server gives when it refuses to create anything in a namespace that is being
// deleted (403, from its NamespaceLifecycle admission).
inline constexpr std::string_view kNamespaceTerminatingCause = "NamespaceTerminating";

// One entry of Status.details.causes: which field was wrong and why.
struct Cause {
  std::string type;
  std::string field;
  std::string message;
};

struct ApiError {
  ErrorKind kind = ErrorKind::Other;
  int http_status = 0;  // 0 when no response was read
  std::string reason;   // Status.reason, e.g. "AlreadyExists"
  std::string message;  // Status.message or the transport error text
  std::vector<Cause> causes;
  std::optional<std::chrono::seconds> retry_after;  // from Retry-After or details.retryAfterSeconds

  // True for failures where repeating the same request later may succeed.
  bool retryable() const;
  // Whether Status.details.causes has an entry of this type (its "reason").
  bool has_cause(std::string_view type) const;
  // "NotFound (404): pods \"x\" not found" — for logs and error messages.
  std::string describe() const;
};

// Decodes an error response: a metav1.Status JSON body when there is one, else the HTTP status.
ApiError error_from_response(int http_status, const std::string& body,
                             const std::string& retry_after_header);
ApiError transport_error(std::string message);

template <class T>
using Result = api::Expected<T, ApiError>;

// Result<void>: success or an error.
using Unit = api::Unit;
using Status = Result<Unit>;
inline Status ok_status() {
  return Unit{};
}

}  // namespace vc::kube
