#pragma once
// The answer side of the load: is an HTTP response the AdmissionReview we asked for?
//
// A full JSON parse of every answer would cost the client more than the server spends on some
// reviews (a job mutation answer carries a base64 patch of the whole task list), and the client
// shares the machine with the server under test. scan_review_answer() is a single pass that
// checks the JSON structure and picks out only the fields the check needs, without allocating.
//
// Thread-safety: pure functions.

#include <optional>
#include <string>
#include <string_view>

namespace vc::bench {

// Fields picked out of an AdmissionReview answer. Strings are the raw JSON text between the
// quotes (escape sequences are not decoded) and point into the scanned body.
struct ReviewAnswer {
  std::string_view api_version;
  std::string_view kind;
  bool has_response = false;
  std::string_view uid;         // response.uid
  std::optional<bool> allowed;  // response.allowed
  std::string_view message;     // response.status.message
};

// Scans body as one JSON value. Returns an error naming the byte offset when the body is not
// well-formed JSON (or nests deeper than 64); a top-level value that is not an object scans to an
// empty answer.
std::optional<std::string> scan_review_answer(std::string_view body, ReviewAnswer& out);

// Checks an answer: HTTP 200, a well-formed admission.k8s.io/v1 AdmissionReview with a response
// whose uid equals expected_uid and whose allowed equals expect_allowed. Returns nullopt when all
// hold, otherwise one line describing the first difference (with the denial message or the start
// of the body, so a printed error explains itself).
std::optional<std::string> check_review_response(unsigned status, std::string_view body,
                                                 std::string_view expected_uid,
                                                 bool expect_allowed);

}  // namespace vc::bench
