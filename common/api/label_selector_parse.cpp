// The label selector string syntax, parsed with the same tokens, contexts and messages as
// Kubernetes' labels.Parse:
//
//   <selector>    ::= <requirement> | <requirement> "," <selector>
//   <requirement> ::= ["!"] KEY [ ("in" | "notin") "(" VALUES ")" | ("=" | "==" | "!=" | ">"
//                     | "<") VALUE ]
//
// Values may be empty ("a=", "a in ()", "a in (x,,y)"). "in" and "notin" are keywords only
// where an operator is expected. The one difference: a bad key is reported as
// "key: Invalid value: ..." where Kubernetes prints "<nil>: Invalid value: ...".

#include <algorithm>

#include "common/api/label_selector_internal.h"
#include "common/api/label_validation.h"
#include "common/go/strconv.h"

namespace vc::api::selector_internal {
namespace {

enum class Token {
  EndOfString,
  ClosedPar,
  Comma,
  DoesNotExist,  // !
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
};

struct Item {
  Token token;
  std::string literal;
};

bool is_whitespace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool is_special(char c) {
  return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
}

bool symbol_token(std::string_view s, Token& token) {
  static constexpr std::pair<std::string_view, Token> kSymbols[] = {
      {")", Token::ClosedPar},     {",", Token::Comma},      {"!", Token::DoesNotExist},
      {"==", Token::DoubleEquals}, {"=", Token::Equals},     {">", Token::GreaterThan},
      {"<", Token::LessThan},      {"!=", Token::NotEquals}, {"(", Token::OpenPar},
  };
  for (const auto& [text, t] : kSymbols) {
    if (text == s) {
      token = t;
      return true;
    }
  }
  return false;
}

// Splits the text into tokens; the last one is always EndOfString. A NUL byte ends the input,
// as in Kubernetes' lexer.
std::vector<Item> lex(std::string_view s) {
  if (auto nul = s.find('\0'); nul != std::string_view::npos) s = s.substr(0, nul);
  std::vector<Item> items;
  std::size_t pos = 0;
  while (true) {
    while (pos < s.size() && is_whitespace(s[pos])) ++pos;
    if (pos == s.size()) {
      items.push_back({Token::EndOfString, ""});
      return items;
    }
    if (is_special(s[pos])) {
      // The longest run of special characters that is still a token ("!=" over "!").
      Token token{};
      std::size_t len = 0;
      for (std::size_t n = 1; pos + n <= s.size() && is_special(s[pos + n - 1]); ++n) {
        Token t;
        if (symbol_token(s.substr(pos, n), t)) {
          token = t;
          len = n;
        } else {
          break;
        }
      }
      items.push_back({token, std::string(s.substr(pos, len))});
      pos += len;
      continue;
    }
    const std::size_t start = pos;
    while (pos < s.size() && !is_special(s[pos]) && !is_whitespace(s[pos])) ++pos;
    std::string word(s.substr(start, pos - start));
    const Token token = word == "in"      ? Token::In
                        : word == "notin" ? Token::NotIn
                                          : Token::Identifier;
    items.push_back({token, std::move(word)});
  }
}

class Parser {
 public:
  explicit Parser(std::vector<Item> items) : items_(std::move(items)) {}

  Expected<std::vector<Requirement>> parse() {
    std::vector<Requirement> requirements;
    while (true) {
      const Item next = lookahead(true);
      if (next.token == Token::EndOfString) return requirements;
      if (next.token != Token::Identifier && next.token != Token::DoesNotExist) {
        return fail("found '" + next.literal + "', expected: !, identifier, or 'end of string'");
      }
      auto requirement = parse_requirement();
      if (!requirement) return fail("unable to parse requirement: " + requirement.error());
      requirements.push_back(std::move(requirement).value());
      const Item after = consume(true);
      if (after.token == Token::EndOfString) return requirements;
      if (after.token != Token::Comma) {
        return fail("found '" + after.literal + "', expected: ',' or 'end of string'");
      }
      const Item again = lookahead(true);
      if (again.token != Token::Identifier && again.token != Token::DoesNotExist) {
        return fail("found '" + again.literal + "', expected: identifier after ','");
      }
    }
  }

 private:
  static Unexpected fail(std::string message) { return Unexpected{std::move(message)}; }

  // In a values context the keywords "in" and "notin" are plain identifiers.
  Item lookahead(bool values_context) const { return adjust(items_[position_], values_context); }
  Item consume(bool values_context) {
    const Item& item = items_[position_];
    if (position_ + 1 < items_.size()) ++position_;  // EndOfString repeats forever
    return adjust(item, values_context);
  }
  static Item adjust(Item item, bool values_context) {
    if (values_context && (item.token == Token::In || item.token == Token::NotIn)) {
      item.token = Token::Identifier;
    }
    return item;
  }

  Expected<Requirement> parse_requirement() {
    bool does_not_exist = false;
    Item key = consume(true);
    if (key.token == Token::DoesNotExist) {
      does_not_exist = true;
      key = consume(true);
    }
    if (key.token != Token::Identifier) {
      return fail("found '" + key.literal + "', expected: identifier");
    }
    if (auto valid = validate_label_key(key.literal); !valid) {
      return fail(invalid("key", go::quote(key.literal), valid.error()));
    }
    const Token next = lookahead(true).token;
    if (does_not_exist) {
      return make_requirement(key.literal, SelectorOperator::DoesNotExist, {});
    }
    if (next == Token::EndOfString || next == Token::Comma) {
      return make_requirement(key.literal, SelectorOperator::Exists, {});
    }
    const Item op_item = consume(false);
    SelectorOperator op;
    switch (op_item.token) {
      case Token::In:
        op = SelectorOperator::In;
        break;
      case Token::NotIn:
        op = SelectorOperator::NotIn;
        break;
      case Token::Equals:
        op = SelectorOperator::Equals;
        break;
      case Token::DoubleEquals:
        op = SelectorOperator::DoubleEquals;
        break;
      case Token::NotEquals:
        op = SelectorOperator::NotEquals;
        break;
      case Token::GreaterThan:
        op = SelectorOperator::GreaterThan;
        break;
      case Token::LessThan:
        op = SelectorOperator::LessThan;
        break;
      default:
        return fail("found '" + op_item.literal + "', expected: in, notin, =, ==, !=, gt, lt");
    }
    auto values = (op == SelectorOperator::In || op == SelectorOperator::NotIn)
                      ? parse_values()
                      : parse_exact_value();
    if (!values) return fail(values.error());
    return make_requirement(key.literal, op, std::move(values).value());
  }

  // "(" [values] ")" as a sorted set; "()" is the set holding "".
  Expected<std::vector<std::string>> parse_values() {
    const Item open = consume(true);
    if (open.token != Token::OpenPar) return fail("found '" + open.literal + "' expected: '('");
    const Item first = lookahead(true);
    if (first.token == Token::ClosedPar) {
      consume(true);
      return std::vector<std::string>{""};
    }
    if (first.token != Token::Identifier && first.token != Token::Comma) {
      return fail("found '" + first.literal + "', expected: ',', ')' or identifier");
    }
    auto values = parse_identifiers();
    if (!values) return values;
    if (consume(true).token != Token::ClosedPar) {
      return fail("found '" + first.literal + "', expected: ')'");
    }
    std::sort(values->begin(), values->end());
    values->erase(std::unique(values->begin(), values->end()), values->end());
    return values;
  }

  // Comma-separated, possibly empty identifiers up to (not including) ")".
  Expected<std::vector<std::string>> parse_identifiers() {
    std::vector<std::string> values;
    while (true) {
      const Item item = consume(true);
      if (item.token == Token::Identifier) {
        values.push_back(item.literal);
        const Item next = lookahead(true);
        if (next.token == Token::Comma) continue;
        if (next.token == Token::ClosedPar) return values;
        return fail("found '" + next.literal + "', expected: ',' or ')'");
      }
      if (item.token != Token::Comma) {
        return fail("found '" + item.literal + "', expected: ',', or identifier");
      }
      if (values.empty()) values.push_back("");  // "(,"
      const Token next = lookahead(true).token;
      if (next == Token::ClosedPar) {
        values.push_back("");  // ",)"
        return values;
      }
      if (next == Token::Comma) {
        consume(true);
        values.push_back("");  // ",,"
      }
    }
  }

  Expected<std::vector<std::string>> parse_exact_value() {
    const Token next = lookahead(true).token;
    if (next == Token::EndOfString || next == Token::Comma) return std::vector<std::string>{""};
    const Item value = consume(true);
    if (value.token != Token::Identifier) {
      return fail("found '" + value.literal + "', expected: identifier");
    }
    return std::vector<std::string>{value.literal};
  }

  std::vector<Item> items_;
  std::size_t position_ = 0;
};

}  // namespace

Expected<std::vector<Requirement>> parse_selector_requirements(std::string_view text) {
  return Parser(lex(text)).parse();
}

}  // namespace vc::api::selector_internal
