#pragma once
// Go's regexp.Compile syntax check (regexp/syntax with Perl flags, Go 1.25), which
// hypernodes/validate applies to member regexMatch patterns. Returns "" when Go accepts the
// pattern, otherwise Go's error text, e.g.
//   error parsing regexp: missing closing ): `a(b`
//
// Every syntax error is detected exactly as Go does, with the same code and the same fragment.
// The two size limits ("expression too large", "expression nests too deeply") are computed on a
// parse tree without Go's alternation factoring and character-class rune counting, so a pattern
// within a few nodes of those limits (about a thousand nesting levels, or millions of compiled
// instructions) may be judged differently.
//
// Threads: pure functions.

#include <string>
#include <string_view>

namespace vc::go {

std::string regexp_error(std::string_view pattern);

// True when Go's \p{name} lookup knows the name (categories, scripts, category aliases, Any,
// Assigned, ASCII), matched as Go 1.25 matches it: case-insensitively and ignoring "_", "-"
// and " ", which is why scripts with underscores in their names (Old_Italic) are not found.
bool unicode_class_known(std::string_view name);
// True for the POSIX classes "[:alnum:]", "[:^alnum:]", ... that Go accepts.
bool posix_class_known(std::string_view name);

}  // namespace vc::go
