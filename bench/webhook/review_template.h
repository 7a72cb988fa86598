#pragma once
// The request side of the load: which AdmissionReview goes to which path, what answer is
// expected, and how each request gets its own uid without re-serialising the review.
//
// A ReviewTemplate is the review re-serialised compactly (as the API server sends it) with the
// request uid replaced by a placeholder of exactly kUidLength characters, whose offset is
// remembered. Every request is then a copy of the template with format_uid() written over the
// placeholder: same length, so Content-Length never changes and no JSON is touched per request.
//
// Thread-safety: all functions are pure; a ReviewTemplate is immutable after parse() and may be
// shared by every client thread.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace vc::bench {

// One --body argument: FILE:PATH[:allowed|denied] (default allowed).
struct BodySpec {
  std::string file;  // the AdmissionReview JSON file
  std::string path;  // the URL path it is posted to, starting with '/'
  bool expect_allowed = true;
};

// Parses "reviews/job.json:/jobs/mutate:allowed". The file name may contain ':'; the path is the
// part after the last ":/". Throws std::invalid_argument naming the problem.
BodySpec parse_body_spec(std::string_view spec);

// Length of every uid we send: the canonical 8-4-4-4-12 UUID text form.
inline constexpr std::size_t kUidLength = 36;

// Writes a UUID-shaped uid unique per (run, connection, sequence) into out (exactly kUidLength
// characters, lower-case hex, no terminator): "rrrrrrrr-cccc-4000-8000-ssssssssssss". The
// connection is taken modulo 2^16 and the sequence modulo 2^48.
void format_uid(std::uint32_t run, std::uint32_t connection, std::uint64_t sequence,
                std::span<char, kUidLength> out);

class ReviewTemplate {
 public:
  // Parses an admission.k8s.io/v1 AdmissionReview with a request (and a request.uid). Throws
  // std::invalid_argument when the text is not JSON or not such a review.
  static ReviewTemplate parse(std::string_view json_text);

  // The compact review with a placeholder uid (all zeros in UUID form).
  const std::string& body() const { return body_; }
  std::size_t uid_offset() const { return uid_offset_; }
  // request.kind.kind and request.operation, for reports ("Job CREATE").
  const std::string& describe() const { return description_; }

  // Overwrites the uid in body, which must be a copy of body() (same length). Throws
  // std::logic_error otherwise: that would be a bug in the caller.
  void write_uid(std::string& body, std::span<const char, kUidLength> uid) const;

 private:
  std::string body_;
  std::size_t uid_offset_ = 0;
  std::string description_;
};

}  // namespace vc::bench
