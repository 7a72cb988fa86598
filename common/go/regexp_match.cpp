#include "common/go/regexp_match.h"

#include <re2/re2.h>

#include "common/go/regexp.h"

namespace vc::go {

Regexp Regexp::compile(std::string_view pattern) {
  // Go's syntax check first: it is exact (golden tests), and RE2 accepts a few spellings Go
  // refuses (\C, for one), which must match nothing as in Volcano.
  std::string go_error = regexp_error(pattern);
  if (!go_error.empty()) return Regexp(Status::go_refuses, std::move(go_error), nullptr);

  RE2::Options options;
  // UTF-8 and Perl-style syntax are RE2's defaults and Go's; ^ and $ anchor at the ends of the
  // text as with Go's OneLine flag. RE2 logs compile errors to stderr by default: we report them.
  options.set_log_errors(false);
  auto re = std::make_shared<const RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!re->ok()) return Regexp(Status::unsupported, re->error(), nullptr);
  return Regexp(Status::ok, "", std::move(re));
}

bool Regexp::match_string(std::string_view text) const {
  if (status_ != Status::ok) return false;
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

}  // namespace vc::go
