// The parse stack of regexp_parser.h: node allocation, Go's incremental concatenation,
// collapsing into concatenations and alternations, and the size and height limits.

#include <algorithm>

#include "common/go/regexp_parser.h"

namespace vc::go::regexp_internal {

int Parser::new_node(Op op) {
  int idx = 0;
  if (!free_.empty()) {
    idx = free_.back();
    free_.pop_back();
    nodes_[idx] = Node{};
  } else {
    idx = static_cast<int>(nodes_.size());
    nodes_.emplace_back();
    ++num_regexp_;
  }
  nodes_[idx].op = op;
  nodes_[idx].flags = flags_;
  return idx;
}

int Parser::push(int idx) {
  maybe_concat();
  stack_.push_back(idx);
  measure(idx);
  check_limits(idx);
  return idx;
}

void Parser::literal() {
  const int idx = new_node(Op::Literal);
  nodes_[idx].runes = 1;
  push(idx);
}

// Two literals on top of the stack with the same case folding become one literal.
void Parser::maybe_concat() {
  const std::size_t n = stack_.size();
  if (n < 2) return;
  Node& re1 = nodes_[stack_[n - 1]];
  Node& re2 = nodes_[stack_[n - 2]];
  if (re1.op != Op::Literal || re2.op != Op::Literal ||
      (re1.flags & kFoldCase) != (re2.flags & kFoldCase)) {
    return;
  }
  re2.runes += re1.runes;
  re2.size = re2.runes;
  reuse(stack_[n - 1]);
  stack_.pop_back();
}

std::size_t Parser::marker_below() const {
  std::size_t i = stack_.size();
  while (i > 0 && !is_marker(nodes_[stack_[i - 1]].op)) --i;
  return i;
}

// One node for subs joined by op; nested nodes of the same op are flattened into it.
int Parser::collapse(const std::vector<int>& subs, Op op) {
  if (subs.size() == 1) return subs[0];
  const int idx = new_node(op);
  std::vector<int> flat;
  for (int sub : subs) {
    if (nodes_[sub].op == op) {
      flat.insert(flat.end(), nodes_[sub].subs.begin(), nodes_[sub].subs.end());
      reuse(sub);
    } else {
      flat.push_back(sub);
    }
  }
  nodes_[idx].subs = std::move(flat);
  return idx;
}

void Parser::concat() {
  maybe_concat();
  const std::size_t i = marker_below();
  std::vector<int> subs(stack_.begin() + static_cast<std::ptrdiff_t>(i), stack_.end());
  stack_.resize(i);
  push(subs.empty() ? new_node(Op::EmptyMatch) : collapse(subs, Op::Concat));
}

void Parser::alternate() {
  const std::size_t i = marker_below();
  std::vector<int> subs(stack_.begin() + static_cast<std::ptrdiff_t>(i), stack_.end());
  stack_.resize(i);
  push(subs.empty() ? new_node(Op::NoMatch) : collapse(subs, Op::Alternate));
}

namespace {
bool is_char_class(const Node& n) {
  return (n.op == Op::Literal && n.runes == 1) || n.op == Op::CharClass ||
         n.op == Op::AnyCharNotNL || n.op == Op::AnyChar;
}
}  // namespace

// If an expression sits above a "|" marker, moves the marker up (merging two single characters
// into one class, as Go does) and returns true.
bool Parser::swap_vertical_bar() {
  const std::size_t n = stack_.size();
  if (n >= 3 && nodes_[stack_[n - 2]].op == Op::VerticalBar &&
      is_char_class(nodes_[stack_[n - 1]]) && is_char_class(nodes_[stack_[n - 3]])) {
    Node& merged = nodes_[stack_[n - 3]];
    merged.op = std::max({merged.op, nodes_[stack_[n - 1]].op, Op::CharClass});
    merged.runes = 0;
    merged.size = 1;
    reuse(stack_[n - 1]);
    stack_.pop_back();
    return true;
  }
  if (n >= 2 && nodes_[stack_[n - 2]].op == Op::VerticalBar) {
    std::swap(stack_[n - 1], stack_[n - 2]);
    return true;
  }
  return false;
}

// Go's calcSize and calcHeight for a new node, from its children's values.
void Parser::measure(int idx) {
  constexpr std::int64_t kCap = kMaxSize * 4;  // keeps the arithmetic far from overflow
  Node& re = nodes_[idx];
  std::int64_t sub_total = 0;
  int height = 1;
  for (int s : re.subs) {
    sub_total = std::min(sub_total + nodes_[s].size, kCap);
    height = std::max(height, nodes_[s].height + 1);
  }
  std::int64_t size = 0;
  switch (re.op) {
    case Op::Literal:
      size = re.runes;
      break;
    case Op::Capture:
    case Op::Star:
      size = 2 + sub_total;
      break;
    case Op::Plus:
    case Op::Quest:
      size = 1 + sub_total;
      break;
    case Op::Concat:
      size = sub_total;
      break;
    case Op::Alternate:
      size = sub_total + static_cast<std::int64_t>(re.subs.size()) - 1;
      break;
    case Op::Repeat:
      if (re.max == -1) {
        size = re.min == 0 ? 2 + sub_total : 1 + re.min * sub_total;
      } else {
        size = re.max * sub_total + (re.max - re.min);
      }
      break;
    default:
      break;
  }
  re.size = std::clamp<std::int64_t>(size, 1, kCap);
  re.height = height;
}

void Parser::check_limits(int idx) {
  const Node& re = nodes_[idx];
  if (!size_tracking_) {
    // Go starts measuring only once (nodes allocated) x (product of repeat counts) could
    // exceed the budget; at that point it checks everything on the stack.
    if (re.op == Op::Repeat) {
      std::int64_t n = re.max == -1 ? re.min : re.max;
      if (n <= 0) n = 1;
      repeats_ = n > kMaxSize / repeats_ ? kMaxSize : repeats_ * n;
    }
    if (num_regexp_ < kMaxSize / repeats_) return check_height(idx);
    size_tracking_ = true;
    for (int s : stack_) {
      if (nodes_[s].size > kMaxSize) return void(fail("expression too large", whole_));
    }
  }
  if (re.size > kMaxSize) return void(fail("expression too large", whole_));
  check_height(idx);
}

void Parser::check_height(int idx) {
  if (num_regexp_ >= kMaxHeight && nodes_[idx].height > kMaxHeight) {
    fail("expression nests too deeply", whole_);
  }
}

// Go's repeatIsValid: nested counted repetitions may not multiply past n copies.
bool Parser::repeat_is_valid(int idx, int n) const {
  const Node& re = nodes_[idx];
  if (re.op == Op::Repeat) {
    int m = re.max;
    if (m == 0) return true;
    if (m < 0) m = re.min;
    if (m > n) return false;
    if (m > 0) n /= m;
  }
  return std::all_of(re.subs.begin(), re.subs.end(), [&](int s) { return repeat_is_valid(s, n); });
}

}  // namespace vc::go::regexp_internal
