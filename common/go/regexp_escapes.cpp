// Escapes, character classes and (?flags) groups for regexp_parser.h, with Go's error codes
// and the exact fragments Go reports.

#include "common/go/regexp.h"
#include "common/go/regexp_parser.h"

namespace vc::go::regexp_internal {
namespace {

bool is_alnum(Rune c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

int unhex(Rune c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_octal(std::string_view t) {
  return !t.empty() && t[0] >= '0' && t[0] <= '7';
}

}  // namespace

Rune decode_rune(std::string_view s, std::size_t& size) {
  size = 0;
  if (s.empty()) return kRuneError;
  const auto b0 = static_cast<unsigned char>(s[0]);
  size = 1;
  if (b0 < 0x80) return b0;
  std::size_t n = 0;
  unsigned char lo = 0x80;  // the valid range of the second byte (no overlongs, no surrogates)
  unsigned char hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return kRuneError;
  }
  if (s.size() < n) return kRuneError;
  const auto b1 = static_cast<unsigned char>(s[1]);
  if (b1 < lo || b1 > hi) return kRuneError;
  Rune r = (b0 & (0x7F >> n)) << 6 | (b1 & 0x3F);
  for (std::size_t i = 2; i < n; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80 || b > 0xBF) return kRuneError;
    r = (r << 6) | (b & 0x3F);
  }
  size = n;
  return r;
}

bool Parser::next_rune(std::string_view& t, Rune& c) {
  std::size_t size = 0;
  c = decode_rune(t, size);
  if (c == kRuneError && size == 1) return fail("invalid UTF-8", t);
  t.remove_prefix(size);
  return true;
}

bool Parser::check_utf8(std::string_view s) {
  Rune c = 0;
  while (!s.empty()) {
    if (!next_rune(s, c)) return false;
  }
  return true;
}

bool Parser::parse_escape_in_main(std::string_view& t) {
  if (t.size() >= 2) {
    switch (t[1]) {
      case 'A':
        t.remove_prefix(2);
        return op(Op::BeginText) >= 0;
      case 'b':
        t.remove_prefix(2);
        return op(Op::WordBoundary) >= 0;
      case 'B':
        t.remove_prefix(2);
        return op(Op::NoWordBoundary) >= 0;
      case 'z':
        t.remove_prefix(2);
        return op(Op::EndText) >= 0;
      case 'C':
        return fail("invalid escape sequence", t.substr(0, 2));  // any byte: unsupported
      case 'Q': {
        // \Q...\E: everything up to \E (or the end) is literal.
        std::string_view lit = t.substr(2);
        const auto end = lit.find("\\E");
        t = end == std::string_view::npos ? std::string_view() : lit.substr(end + 2);
        if (end != std::string_view::npos) lit = lit.substr(0, end);
        Rune c = 0;
        while (!lit.empty()) {
          if (!next_rune(lit, c)) return false;
          literal();
        }
        return true;
      }
      default:
        break;
    }
  }
  const Found unicode = parse_unicode_class(t);
  if (unicode == Found::Error) return false;
  if (unicode == Found::Consumed || parse_perl_class_escape(t)) {
    push(new_node(Op::CharClass));
    return true;
  }
  Rune c = 0;
  if (!parse_escape(t, c)) return false;
  literal();
  return true;
}

// One escape sequence (after which t points past it); r is the character it stands for.
bool Parser::parse_escape(std::string_view& t, Rune& r) {
  const std::string_view s = t;
  std::string_view rest = s.substr(1);
  if (rest.empty()) return fail("trailing backslash at end of expression", "");
  Rune c = 0;
  if (!next_rune(rest, c)) return false;
  bool valid = false;
  switch (c) {
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
      // A single non-zero digit would be a backreference, which Go does not support.
      if (!is_octal(rest)) break;
      [[fallthrough]];
    case '0':
      r = c - '0';
      for (int i = 1; i < 3 && is_octal(rest); ++i) {
        r = r * 8 + (rest[0] - '0');
        rest.remove_prefix(1);
      }
      valid = true;
      break;
    case 'x': {
      if (rest.empty()) break;
      if (!next_rune(rest, c)) return false;
      if (c == '{') {
        int digits = 0;
        r = 0;
        while (!rest.empty()) {
          if (!next_rune(rest, c)) return false;
          if (c == '}') {
            valid = digits > 0;
            break;
          }
          const int v = unhex(c);
          if (v < 0) break;
          r = r * 16 + v;
          if (r > kMaxRune) break;
          ++digits;
        }
        break;
      }
      const int x = unhex(c);
      if (!next_rune(rest, c)) return false;  // at the end this reads RuneError, not an error
      const int y = unhex(c);
      if (x >= 0 && y >= 0) {
        r = x * 16 + y;
        valid = true;
      }
      break;
    }
    case 'a':
      r = '\a';
      valid = true;
      break;
    case 'f':
      r = '\f';
      valid = true;
      break;
    case 'n':
      r = '\n';
      valid = true;
      break;
    case 'r':
      r = '\r';
      valid = true;
      break;
    case 't':
      r = '\t';
      valid = true;
      break;
    case 'v':
      r = '\v';
      valid = true;
      break;
    default:
      // Escaped punctuation stands for itself; escaped letters and digits must be known.
      if (c < 0x80 && !is_alnum(c)) {
        r = c;
        valid = true;
      }
      break;
  }
  if (!valid) return fail("invalid escape sequence", consumed(s, rest));
  t = rest;
  return true;
}

// (?flags), (?flags:...), (?P<name>...) and (?<name>...); t starts with "(?".
bool Parser::parse_perl_flags(std::string_view& t) {
  const std::string_view s = t;
  const bool starts_with_p = s.size() > 4 && s[2] == 'P' && s[3] == '<';
  const bool starts_with_name = s.size() > 3 && s[2] == '<';
  if (starts_with_p || starts_with_name) {
    const std::size_t name_start = starts_with_p ? 4 : 3;
    const auto end = s.find('>');
    if (end == std::string_view::npos) {
      if (!check_utf8(s)) return false;
      return fail("invalid named capture", s);
    }
    const std::string_view name = s.substr(name_start, end - name_start);
    if (!check_utf8(name)) return false;
    bool valid = !name.empty();
    for (char c : name) valid = valid && (c == '_' || is_alnum(static_cast<unsigned char>(c)));
    if (!valid) return fail("invalid named capture", s.substr(0, end + 1));
    nodes_[op(Op::LeftParen)].cap = ++num_cap_;
    t = s.substr(end + 1);
    return true;
  }

  std::string_view rest = s.substr(2);
  std::uint16_t flags = flags_;
  bool negated = false;
  bool saw_flag = false;
  Rune c = 0;
  while (!rest.empty()) {
    if (!next_rune(rest, c)) return false;
    // While negated the flags are inverted, so setting a bit here clears it in the result.
    if (c == 'i' || c == 's' || c == 'U') {
      flags |= c == 'i' ? kFoldCase : c == 's' ? kDotNL : kNonGreedy;
      saw_flag = true;
    } else if (c == 'm') {
      flags &= static_cast<std::uint16_t>(~kOneLine);
      saw_flag = true;
    } else if (c == '-') {
      if (negated) break;
      negated = true;
      flags = static_cast<std::uint16_t>(~flags);
      saw_flag = false;
    } else if (c == ':' || c == ')') {
      if (negated) {
        if (!saw_flag) break;
        flags = static_cast<std::uint16_t>(~flags);
      }
      if (c == ':') op(Op::LeftParen);  // a non-capturing group, with the outer flags saved
      flags_ = flags;
      t = rest;
      return true;
    } else {
      break;
    }
  }
  return fail("invalid or unsupported Perl syntax", consumed(s, rest));
}

bool Parser::parse_perl_class_escape(std::string_view& t) {
  if (t.size() < 2 || t[0] != '\\') return false;
  switch (t[1]) {
    case 'd':
    case 'D':
    case 's':
    case 'S':
    case 'w':
    case 'W':
      t.remove_prefix(2);
      return true;
    default:
      return false;
  }
}

// [:alpha:] and friends inside a class; t starts with "[:".
Parser::Found Parser::parse_named_class(std::string_view& t) {
  const auto close = t.find(":]", 2);
  if (close == std::string_view::npos) return Found::None;
  const std::string_view name = t.substr(0, close + 2);
  if (!posix_class_known(name)) {
    fail("invalid character class range", name);
    return Found::Error;
  }
  t.remove_prefix(name.size());
  return Found::Consumed;
}

// \pN, \p{Name}, \PN, \P{^Name}.
Parser::Found Parser::parse_unicode_class(std::string_view& t) {
  if (t.size() < 2 || t[0] != '\\' || (t[1] != 'p' && t[1] != 'P')) return Found::None;
  std::string_view rest = t.substr(2);
  Rune c = 0;
  if (!next_rune(rest, c)) return Found::Error;
  std::string_view seq;
  std::string_view name;
  if (c != '{') {
    seq = consumed(t, rest);  // a one-letter name
    name = seq.substr(2);
  } else {
    const auto end = t.find('}');
    if (end == std::string_view::npos) {
      if (!check_utf8(t)) return Found::Error;
      fail("invalid character class range", t);
      return Found::Error;
    }
    seq = t.substr(0, end + 1);
    rest = t.substr(end + 1);
    name = t.substr(3, end - 3);
    if (!check_utf8(name)) return Found::Error;
  }
  if (!name.empty() && name[0] == '^') name.remove_prefix(1);
  if (!unicode_class_known(name)) {
    fail("invalid character class range", seq);
    return Found::Error;
  }
  t = rest;
  return Found::Consumed;
}

bool Parser::parse_class_char(std::string_view& t, std::string_view whole_class, Rune& r) {
  if (t.empty()) return fail("missing closing ]", whole_class);
  if (t[0] == '\\') return parse_escape(t, r);
  return next_rune(t, r);
}

// [...] and [^...]; "]" first in the class is a literal, and "-" is allowed anywhere (Perl).
bool Parser::parse_class(std::string_view& t) {
  const std::string_view s = t;
  const int idx = new_node(Op::CharClass);
  t.remove_prefix(1);
  if (!t.empty() && t[0] == '^') t.remove_prefix(1);
  bool first = true;
  while (t.empty() || t[0] != ']' || first) {
    first = false;
    if (t.size() > 2 && t[0] == '[' && t[1] == ':') {
      const Found named = parse_named_class(t);
      if (named == Found::Error) return false;
      if (named == Found::Consumed) continue;
    }
    const Found unicode = parse_unicode_class(t);
    if (unicode == Found::Error) return false;
    if (unicode == Found::Consumed || parse_perl_class_escape(t)) continue;

    const std::string_view range = t;
    Rune lo = 0;
    if (!parse_class_char(t, s, lo)) return false;
    Rune hi = lo;
    if (t.size() >= 2 && t[0] == '-' && t[1] != ']') {  // "[a-]" is "a" or "-"
      t.remove_prefix(1);
      if (!parse_class_char(t, s, hi)) return false;
      if (hi < lo) return fail("invalid character class range", consumed(range, t));
    }
  }
  t.remove_prefix(1);
  push(idx);
  return true;
}

}  // namespace vc::go::regexp_internal
