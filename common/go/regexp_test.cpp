#include "common/go/regexp.h"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace vc::go {
namespace {

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// (pattern, Go 1.25 regexp.Compile error text or "").
const std::vector<std::pair<std::string, std::string>> kGoResults = {
    {"a(b", "error parsing regexp: missing closing ): `a(b`"},
    {"((a)", "error parsing regexp: missing closing ): `((a)`"},
    {"(?:", "error parsing regexp: missing closing ): `(?:`"},
    {"(?P<n>", "error parsing regexp: missing closing ): `(?P<n>`"},
    {"a)", "error parsing regexp: unexpected ): `a)`"},
    {"x|)", "error parsing regexp: unexpected ): `x|)`"},
    {"())", "error parsing regexp: unexpected ): `())`"},
    {"[a", "error parsing regexp: missing closing ]: `[a`"},
    {"[]", "error parsing regexp: missing closing ]: `[]`"},
    {"[^]", "error parsing regexp: missing closing ]: `[^]`"},
    {"[[:alpha:]", "error parsing regexp: missing closing ]: `[[:alpha:]`"},
    {"*", "error parsing regexp: missing argument to repetition operator: `*`"},
    {"a|*", "error parsing regexp: missing argument to repetition operator: `*`"},
    {"(*)", "error parsing regexp: missing argument to repetition operator: `*`"},
    {"a**", "error parsing regexp: invalid nested repetition operator: `**`"},
    {"a++", "error parsing regexp: invalid nested repetition operator: `++`"},
    {"a*?*", "error parsing regexp: invalid nested repetition operator: `*?*`"},
    {"a{2}{3}", "error parsing regexp: invalid nested repetition operator: `{2}{3}`"},
    {"\\", "error parsing regexp: trailing backslash at end of expression: ``"},
    {"a\\", "error parsing regexp: trailing backslash at end of expression: ``"},
    {"[a\\", "error parsing regexp: trailing backslash at end of expression: ``"},
    {"\\q", "error parsing regexp: invalid escape sequence: `\\q`"},
    {"\\8", "error parsing regexp: invalid escape sequence: `\\8`"},
    {"\\1", "error parsing regexp: invalid escape sequence: `\\1`"},
    {"\\C", "error parsing regexp: invalid escape sequence: `\\C`"},
    {"\\E", "error parsing regexp: invalid escape sequence: `\\E`"},
    {"\\x{110000}", "error parsing regexp: invalid escape sequence: `\\x{110000`"},
    {"\\x{}", "error parsing regexp: invalid escape sequence: `\\x{}`"},
    {"\\x4", "error parsing regexp: invalid escape sequence: `\\x4`"},
    {"\\xg0", "error parsing regexp: invalid escape sequence: `\\xg0`"},
    {"[a-\\d]", "error parsing regexp: invalid escape sequence: `\\d`"},
    {"(?P<>a)", "error parsing regexp: invalid named capture: `(?P<>`"},
    {"(?<x", "error parsing regexp: invalid named capture: `(?<x`"},
    {"(?P<n!>x)", "error parsing regexp: invalid named capture: `(?P<n!>`"},
    {"[z-a]", "error parsing regexp: invalid character class range: `z-a`"},
    {"[[:foo:]]", "error parsing regexp: invalid character class range: `[:foo:]`"},
    {"\\p{Foo}", "error parsing regexp: invalid character class range: `\\p{Foo}`"},
    {"[\\p{Foo}]", "error parsing regexp: invalid character class range: `\\p{Foo}`"},
    {"\\pX", "error parsing regexp: invalid character class range: `\\pX`"},
    {"\\p", "error parsing regexp: invalid character class range: `\\p`"},
    {"\\p{", "error parsing regexp: invalid character class range: `\\p{`"},
    {"\\p{Greek", "error parsing regexp: invalid character class range: `\\p{Greek`"},
    {"\\p{}", "error parsing regexp: invalid character class range: `\\p{}`"},
    {"\\p{Old_Italic}", "error parsing regexp: invalid character class range: `\\p{Old_Italic}`"},
    {"\\p{SignWriting}", "error parsing regexp: invalid character class range: `\\p{SignWriting}`"},
    {"x{1001}", "error parsing regexp: invalid repeat count: `{1001}`"},
    {"a{2,1}", "error parsing regexp: invalid repeat count: `{2,1}`"},
    {"a{99999999999}", "error parsing regexp: invalid repeat count: `{99999999999}`"},
    {"a{1,99999999999}", "error parsing regexp: invalid repeat count: `{1,99999999999}`"},
    {"(x{500}){3}", "error parsing regexp: invalid repeat count: `{3}`"},
    {"((x{20}){20}){20}", "error parsing regexp: invalid repeat count: `{20}`"},
    {"(?i", "error parsing regexp: invalid or unsupported Perl syntax: `(?i`"},
    {"(?z)", "error parsing regexp: invalid or unsupported Perl syntax: `(?z`"},
    {"(?P=n)", "error parsing regexp: invalid or unsupported Perl syntax: `(?P`"},
    {"(?'n'x)", "error parsing regexp: invalid or unsupported Perl syntax: `(?'`"},
    {"(?i-)", "error parsing regexp: invalid or unsupported Perl syntax: `(?i-)`"},
    {"(?-)", "error parsing regexp: invalid or unsupported Perl syntax: `(?-)`"},
    {"(?--i)", "error parsing regexp: invalid or unsupported Perl syntax: `(?--`"},
    {"(?i)(?", "error parsing regexp: invalid or unsupported Perl syntax: `(?`"},
    {"\xff", "error parsing regexp: invalid UTF-8: `\xff`"},
    {"[a\xff]", "error parsing regexp: invalid UTF-8: `\xff]`"},
    // Accepted.
    {"a{,5}", ""},
    {"[]a]", ""},
    {"\\Q*", ""},
    {"x{2}{,}", ""},
    {"[\\d-z]", ""},
    {"\\pZ", ""},
    {"\\z", ""},
    {"x{1000}", ""},
    {"a{1001", ""},
    {"\\08", ""},
    {"(?i-s:x)", ""},
    {"(?)", ""},
    {"(?:)", ""},
    {"[^\\n]", ""},
    {"\\p{greek}", ""},
    {"\\p{Letter}", ""},
    {"\\p{cased-letter}", ""},
    {"\\p{Any}", ""},
    {"\\p{ascii}", ""},
    {"\\p{^Greek}", ""},
    {"\\p{Nko}", ""},
    {"\\p{Cntrl}", ""},
    {"\\p{lu}", ""},
    {"(?P<a>x)(?P<a>y)", ""},
    {"node-[0-9]+", ""},
    {"^gpu-(a|b)\\d{2}$", ""},
    {"", ""},
};

TEST(GoRegexp, MatchesGoErrorTextsFragmentForFragment) {
  for (const auto& [pattern, want] : kGoResults) {
    EXPECT_EQ(regexp_error(pattern), want) << "pattern: " << pattern;
  }
}

TEST(GoRegexp, LimitsNestingDepthAtAThousand) {
  const std::string ok = repeat("(", 999) + "a" + repeat(")", 999);
  EXPECT_EQ(regexp_error(ok), "");
  const std::string deep = repeat("(", 1001) + "a" + repeat(")", 1001);
  EXPECT_EQ(regexp_error(deep),
            "error parsing regexp: expression nests too deeply: `" + deep + "`");
  const std::string stars = repeat("(?:", 1000) + "a" + repeat(")*", 1000);
  EXPECT_EQ(regexp_error(stars),
            "error parsing regexp: expression nests too deeply: `" + stars + "`");
}

TEST(GoRegexp, LimitsCompiledSize) {
  EXPECT_EQ(regexp_error(repeat("[a-z]{1000}", 3300)), "");
  const std::string big = repeat("[a-z]{1000}", 3400);
  EXPECT_EQ(regexp_error(big), "error parsing regexp: expression too large: `" + big + "`");
}

TEST(GoRegexp, KnowsUnicodeAndPosixClassNames) {
  EXPECT_TRUE(unicode_class_known("Han"));
  EXPECT_TRUE(unicode_class_known("decimal_number"));
  EXPECT_FALSE(unicode_class_known("Linear_B"));  // Go 1.25 cannot find scripts with "_"
  EXPECT_TRUE(posix_class_known("[:^space:]"));
  EXPECT_FALSE(posix_class_known("[:spaces:]"));
}

}  // namespace
}  // namespace vc::go
