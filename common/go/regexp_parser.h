#pragma once
// Internal to regexp.cpp and its companions: a syntax checker that follows Go's
// regexp/syntax parser step by step (a stack of partial expressions with "(" and "|" markers),
// building a light parse tree only to apply Go's repetition and size limits.
//
// Threads: a Parser is used by one thread for one pattern.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vc::go::regexp_internal {

using Rune = std::int32_t;
inline constexpr Rune kRuneError = 0xFFFD;
inline constexpr Rune kMaxRune = 0x10FFFF;

// Go's limits: tree height, compiled instructions (128 MiB of 40-byte instructions), counts.
inline constexpr int kMaxHeight = 1000;
inline constexpr std::int64_t kMaxSize = (std::int64_t{128} << 20) / 40;
inline constexpr int kMaxRepeat = 1000;

enum Flag : std::uint16_t {
  kFoldCase = 1,
  kClassNL = 4,
  kDotNL = 8,
  kOneLine = 16,
  kNonGreedy = 32,
  kPerlX = 64,
  kUnicodeGroups = 128,
  kPerl = kClassNL | kOneLine | kPerlX | kUnicodeGroups,
};

// In Go's order; the last two are parser markers, never part of a finished tree.
enum class Op : std::uint8_t {
  NoMatch,
  EmptyMatch,
  Literal,
  CharClass,
  AnyCharNotNL,
  AnyChar,
  BeginLine,
  EndLine,
  BeginText,
  EndText,
  WordBoundary,
  NoWordBoundary,
  Capture,
  Star,
  Plus,
  Quest,
  Repeat,
  Concat,
  Alternate,
  LeftParen,
  VerticalBar,
};

inline bool is_marker(Op op) {
  return op >= Op::LeftParen;
}

struct Node {
  Op op = Op::NoMatch;
  std::uint16_t flags = 0;
  int min = 0;
  int max = 0;
  int cap = 0;
  std::int64_t runes = 0;  // literal length
  std::int64_t size = 1;   // Go's calcSize
  int height = 1;          // Go's calcHeight
  std::vector<int> subs;
};

// utf8.DecodeRuneInString: (RuneError, 1) for invalid input, (RuneError, 0) for empty input.
Rune decode_rune(std::string_view s, std::size_t& size);

// The prefix of `from` that `rest` (a suffix of it) does not cover.
inline std::string_view consumed(std::string_view from, std::string_view rest) {
  return from.substr(0, from.size() - rest.size());
}

class Parser {
 public:
  explicit Parser(std::string_view whole) : whole_(whole) {}

  // "" or Go's error text.
  std::string run();

 private:
  enum class Found { None, Consumed, Error };

  // regexp.cpp: the main loop and the operators.
  void parse();
  bool repeat(Op op, int min, int max, std::string_view before, std::string_view& after,
              std::string_view last_repeat);
  static bool parse_repeat(std::string_view s, int& min, int& max, std::string_view& rest);
  static bool parse_int(std::string_view& s, int& n);
  void parse_vertical_bar();
  bool parse_right_paren();

  // regexp_escapes.cpp: escapes, classes and (?flags).
  bool parse_escape_in_main(std::string_view& t);
  bool parse_perl_flags(std::string_view& t);
  bool parse_class(std::string_view& t);
  Found parse_named_class(std::string_view& t);
  Found parse_unicode_class(std::string_view& t);
  static bool parse_perl_class_escape(std::string_view& t);
  bool parse_class_char(std::string_view& t, std::string_view whole_class, Rune& r);
  bool parse_escape(std::string_view& t, Rune& r);
  bool next_rune(std::string_view& t, Rune& c);
  bool check_utf8(std::string_view s);

  // regexp_stack.cpp: the parse stack, the tree and the limits.
  int new_node(Op op);
  void reuse(int idx) { free_.push_back(idx); }
  int push(int idx);
  int op(Op o) { return push(new_node(o)); }
  void literal();
  void maybe_concat();
  std::size_t marker_below() const;
  int collapse(const std::vector<int>& subs, Op op);
  void concat();
  void alternate();
  bool swap_vertical_bar();
  void measure(int idx);
  void check_limits(int idx);
  void check_height(int idx);
  bool repeat_is_valid(int idx, int n) const;

  bool fail(std::string_view code, std::string_view expr) {
    if (!error_) error_.emplace(std::string(code), std::string(expr));
    return false;
  }

  std::string_view whole_;
  std::vector<Node> nodes_;
  std::vector<int> free_;  // reusable node slots, as Go's parser recycles nodes
  std::vector<int> stack_;
  std::uint16_t flags_ = kPerl;
  int num_cap_ = 0;
  std::int64_t num_regexp_ = 0;  // nodes allocated (Go's numRegexp)
  std::int64_t repeats_ = 1;     // product of repeat counts seen before size tracking starts
  bool size_tracking_ = false;
  std::optional<std::pair<std::string, std::string>> error_;  // (code, fragment)
};

}  // namespace vc::go::regexp_internal
