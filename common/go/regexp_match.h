#pragma once
// Go's regexp.Compile + Regexp.MatchString for patterns from the API (HyperNode regexMatch),
// on Debian's RE2. Go's regexp package implements RE2's syntax and semantics (leftmost-first,
// linear time, no backreferences), so the matcher is the same engine family, not an
// approximation: the golden test (golden_test.cpp) checks pairs of pattern and subject against
// Go itself.
//
// A pattern has one of three outcomes:
//   ok           Go and RE2 both compile it; match_string answers as Go does.
//   go_refuses   Go's regexp.Compile fails (regexp.h gives the same error text): callers that
//                mirror Volcano treat it as matching nothing.
//   unsupported  Go accepts it but this RE2 cannot compile it (named groups spelled (?<n>...),
//                which Go accepts since 1.22 and RE2 only later, or a program over RE2's memory
//                budget). No answer is given; callers must not guess one.
//
// Threads: a compiled Regexp is immutable and may be shared between threads.

#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace re2 {
class RE2;
}

namespace vc::go {

class Regexp {
 public:
  enum class Status { ok, go_refuses, unsupported };

  static Regexp compile(std::string_view pattern);

  Status status() const { return status_; }
  // Why the pattern is not ok: Go's error text or RE2's; empty when ok.
  const std::string& error() const { return error_; }
  // Go's MatchString: true when the pattern matches anywhere in `text`. False unless ok.
  bool match_string(std::string_view text) const;

 private:
  Regexp(Status status, std::string error, std::shared_ptr<const re2::RE2> re)
      : status_(status), error_(std::move(error)), re_(std::move(re)) {}

  Status status_;
  std::string error_;
  std::shared_ptr<const re2::RE2> re_;
};

}  // namespace vc::go
