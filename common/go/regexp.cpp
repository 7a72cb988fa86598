// The main loop of regexp_parser.h: literals, groups, alternation and repetition operators.

#include "common/go/regexp.h"

#include "common/go/regexp_parser.h"

namespace vc::go {

std::string regexp_error(std::string_view pattern) {
  return regexp_internal::Parser(pattern).run();
}

namespace regexp_internal {

std::string Parser::run() {
  parse();
  if (!error_) return {};
  return "error parsing regexp: " + error_->first + ": `" + error_->second + "`";
}

void Parser::parse() {
  std::string_view t = whole_;
  std::string_view last_repeat;  // the text from the previous repetition operator on, if any
  while (!t.empty() && !error_) {
    std::string_view repeat_text;
    switch (t[0]) {
      case '(':
        if (t.size() >= 2 && t[1] == '?') {
          parse_perl_flags(t);
          break;
        }
        nodes_[op(Op::LeftParen)].cap = ++num_cap_;
        t.remove_prefix(1);
        break;
      case '|':
        parse_vertical_bar();
        t.remove_prefix(1);
        break;
      case ')':
        if (!parse_right_paren()) return;
        t.remove_prefix(1);
        break;
      case '^':
        op((flags_ & kOneLine) ? Op::BeginText : Op::BeginLine);
        t.remove_prefix(1);
        break;
      case '$':
        op((flags_ & kOneLine) ? Op::EndText : Op::EndLine);
        t.remove_prefix(1);
        break;
      case '.':
        op((flags_ & kDotNL) ? Op::AnyChar : Op::AnyCharNotNL);
        t.remove_prefix(1);
        break;
      case '[':
        parse_class(t);
        break;
      case '*':
      case '+':
      case '?': {
        const Op o = t[0] == '*' ? Op::Star : (t[0] == '+' ? Op::Plus : Op::Quest);
        const std::string_view before = t;
        std::string_view after = t.substr(1);
        if (!repeat(o, 0, 0, before, after, last_repeat)) return;
        repeat_text = before;
        t = after;
        break;
      }
      case '{': {
        const std::string_view before = t;
        int min = 0;
        int max = 0;
        std::string_view after;
        if (!parse_repeat(t, min, max, after)) {
          literal();  // not a repetition: "{" is a literal
          t.remove_prefix(1);
          break;
        }
        if (min < 0 || min > kMaxRepeat || max > kMaxRepeat || (max >= 0 && min > max)) {
          fail("invalid repeat count", consumed(before, after));
          return;
        }
        if (!repeat(Op::Repeat, min, max, before, after, last_repeat)) return;
        repeat_text = before;
        t = after;
        break;
      }
      case '\\':
        parse_escape_in_main(t);
        break;
      default: {
        Rune c = 0;
        if (!next_rune(t, c)) return;
        literal();
        break;
      }
    }
    last_repeat = repeat_text;
  }
  if (error_) return;
  concat();
  if (swap_vertical_bar()) stack_.pop_back();
  alternate();
  if (!error_ && stack_.size() != 1) fail("missing closing )", whole_);
}

bool Parser::repeat(Op o, int min, int max, std::string_view before, std::string_view& after,
                    std::string_view last_repeat) {
  std::uint16_t flags = flags_;
  if (!after.empty() && after[0] == '?') {
    after.remove_prefix(1);
    flags ^= kNonGreedy;
  }
  if (!last_repeat.empty()) {
    // Perl forbids stacking repetition operators: a** is an error, not a doubled star.
    return fail("invalid nested repetition operator", consumed(last_repeat, after));
  }
  if (stack_.empty() || is_marker(nodes_[stack_.back()].op)) {
    return fail("missing argument to repetition operator", consumed(before, after));
  }
  const int sub = stack_.back();
  const int idx = new_node(o);
  nodes_[idx].min = min;
  nodes_[idx].max = max;
  nodes_[idx].flags = flags;
  nodes_[idx].subs = {sub};
  stack_.back() = idx;
  measure(idx);
  check_limits(idx);
  if (error_) return false;
  if (o == Op::Repeat && (min >= 2 || max >= 2) && !repeat_is_valid(idx, kMaxRepeat)) {
    return fail("invalid repeat count", consumed(before, after));
  }
  return true;
}

// {min}, {min,} or {min,max}; false when s is not of that form ("{" is then a literal). A
// number of 10^8 or more reads as -1, which the caller rejects as a bad count.
bool Parser::parse_repeat(std::string_view s, int& min, int& max, std::string_view& rest) {
  if (s.empty() || s[0] != '{') return false;
  s.remove_prefix(1);
  if (!parse_int(s, min) || s.empty()) return false;
  if (s[0] != ',') {
    max = min;
  } else {
    s.remove_prefix(1);
    if (s.empty()) return false;
    if (s[0] == '}') {
      max = -1;
    } else if (!parse_int(s, max)) {
      return false;
    } else if (max < 0) {
      min = -1;
    }
  }
  if (s.empty() || s[0] != '}') return false;
  rest = s.substr(1);
  return true;
}

// A decimal number without leading zeros; -1 when it reaches 10^8.
bool Parser::parse_int(std::string_view& s, int& n) {
  if (s.empty() || s[0] < '0' || s[0] > '9') return false;
  if (s.size() >= 2 && s[0] == '0' && s[1] >= '0' && s[1] <= '9') return false;
  n = 0;
  for (; !s.empty() && s[0] >= '0' && s[0] <= '9'; s.remove_prefix(1)) {
    if (n >= 0 && n >= 100000000) n = -1;
    if (n >= 0) n = n * 10 + (s[0] - '0');
  }
  return true;
}

void Parser::parse_vertical_bar() {
  concat();
  if (!swap_vertical_bar()) op(Op::VerticalBar);
}

bool Parser::parse_right_paren() {
  concat();
  if (swap_vertical_bar()) stack_.pop_back();
  alternate();
  const std::size_t n = stack_.size();
  if (n < 2) return fail("unexpected )", whole_);
  const int re1 = stack_[n - 1];
  const int re2 = stack_[n - 2];
  stack_.resize(n - 2);
  if (nodes_[re2].op != Op::LeftParen) return fail("unexpected )", whole_);
  flags_ = nodes_[re2].flags;  // the flags in force at the "("
  if (nodes_[re2].cap == 0) {
    push(re1);  // a non-capturing group
  } else {
    nodes_[re2].op = Op::Capture;
    nodes_[re2].subs = {re1};
    push(re2);
  }
  return !error_;
}

}  // namespace regexp_internal
}  // namespace vc::go
