#pragma once
// The admission.k8s.io/v1 AdmissionReview wire format (spec webhook.md §2.0): decoding a request
// body into an AdmissionRequest, and encoding an AdmissionResponse into the review the API server
// reads, byte for byte as Volcano's Go encoder writes it:
//
//   {"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","response":{"uid":"…",
//    "allowed":false,"status":{"metadata":{},"message":"…"},"patch":"<base64>",
//    "patchType":"JSONPatch","warnings":["…"]}}
//
// Thread-safety: pure functions; call from any thread.

#include <cstddef>
#include <string>
#include <string_view>

#include "common/api/expected.h"
#include "common/go/base64.h"
#include "webhook/admission/review.h"

namespace vc::webhook::server {

inline constexpr std::string_view kReviewApiVersion = "admission.k8s.io/v1";
inline constexpr std::string_view kReviewKind = "AdmissionReview";

// Decodes a request body. The error names what is wrong, e.g. "request is missing",
// "request.uid is missing", "apiVersion must be admission.k8s.io/v1, got \"…\"",
// "request.name must be a string" or "invalid JSON at offset 12: …" (the offset counts the bytes
// read when the error was found, as Go's json.SyntaxError.Offset does). A number beyond the range
// of a double (1e309) is valid JSON that we cannot hold: "JSON number out of range: …", where Go
// would keep the raw object and let the admit function's decoder deny it (docs/compat.md).
//
// An absent apiVersion or kind is accepted (Go fills both in from the target type); a present
// but different one is an error. A value of `null` counts as absent, as in Go. The request's
// `kind`, `requestKind`, `requestResource` and `options` are type-checked loosely (objects) and
// not kept: no admit function reads them.
//
// Size: a review nested deeper than go::kMaxJsonDepth (10000, Go's limit) is refused with
// "invalid JSON: exceeded max depth of 10000", and one holding more than limits.max_values JSON
// values (objects, arrays and scalars; keys are not values) with "too many JSON values: more
// than N (--max-review-values)", before more than that is built: a body of many tiny values
// ([{},{},...]) would otherwise parse into a tree twenty times its size.
struct ReviewLimits {
  std::size_t max_values = 250'000;  // --max-review-values
};
inline constexpr std::string_view kTooManyValuesError = "too many JSON values";
inline constexpr std::string_view kTooDeepError = "invalid JSON: exceeded max depth";

api::Expected<AdmissionRequest> decode_review(std::string_view body,
                                              const ReviewLimits& limits = {});

// The most memory decoding a body of this size may take (its tree at its largest) under these
// limits: what the admission server reserves from its budget before it decodes one.
std::size_t decode_working_set(std::size_t body_size, const ReviewLimits& limits);

// Encodes the review answering the request with this uid. `status` appears only for a denial;
// `patch` (standard base64 with padding) and `patchType` only for a non-empty patch array, so an
// empty patch is never sent as a literal `null` (docs/compat.md). Strings are escaped as Go does
// (<, > and & as \u003c, \u003e, \u0026; invalid UTF-8 replaced).
// Throws std::logic_error when response.patch is neither null nor an array: a programmer error
// in an admit function.
std::string encode_review(std::string_view uid, const AdmissionResponse& response);

using go::base64_encode;  // common/go/base64.h

}  // namespace vc::webhook::server
