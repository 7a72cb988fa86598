#include "common/json/fast_parse.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <system_error>
#include <utility>

#include "common/json/plain_run.h"

namespace vc::fastjson {
namespace {

using nlohmann::json;

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Recursive descent over [p, end). Every parse_* returns false to leave the document to
// nlohmann; the caller then discards whatever was built.
class Parser {
 public:
  Parser(std::string_view text, std::string_view drop_member, std::size_t max_values)
      : p_(text.data()),
        end_(text.data() + text.size()),
        drop_(drop_member),
        values_left_(max_values) {}

  // `filter` null: build every member.
  bool document(json& out, const MemberFilter* filter) {
    skip_ws();
    if (!value(out, 0, filter)) return false;
    skip_ws();
    return p_ == end_;
  }

 private:
  void skip_ws() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size()) return false;
    if (std::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  bool value(json& out, int depth, const MemberFilter* filter) {
    if (p_ == end_ || values_left_ == 0) return false;
    --values_left_;
    switch (*p_) {
      case '{':
        return object(out, depth + 1, filter);
      case '[':
        return array(out, depth + 1, filter);
      case '"':
        // Decoded straight into the value's own string: no temporary to move and destroy.
        out = json::value_t::string;
        return string(out.get_ref<std::string&>());
      case 't':
        if (!literal("true")) return false;
        out = true;
        return true;
      case 'f':
        if (!literal("false")) return false;
        out = false;
        return true;
      case 'n':
        if (!literal("null")) return false;
        out = nullptr;
        return true;
      default:
        return number(out);
    }
  }

  // The members of an object (close '}') or the elements of an array (close ']'), at the opening
  // bracket: each key goes to `key` (objects only), then item() parses the value after it.
  // kKeepKeys false (a skipped object): keys are checked but not decoded anywhere.
  template <bool kKeepKeys = true, class Item>
  bool items(char close, int depth, std::string& key, Item&& item) {
    if (depth > kMaxFastDepth) return false;
    ++p_;
    skip_ws();
    if (p_ != end_ && *p_ == close) {
      ++p_;
      return true;
    }
    for (;;) {
      if (close == '}') {
        if (p_ == end_ || *p_ != '"') return false;
        key.clear();
        if (!string_impl<kKeepKeys>(key)) return false;
        skip_ws();
        if (p_ == end_ || *p_ != ':') return false;
        ++p_;
        skip_ws();
      }
      if (!item()) return false;
      skip_ws();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        skip_ws();
        continue;
      }
      if (*p_ != close) return false;
      ++p_;
      return true;
    }
  }

  bool object(json& out, int depth, const MemberFilter* filter) {
    // Not json::object(): its initializer-list constructor cost more than building the node.
    out = json::value_t::object;
    auto& members = out.get_ref<json::object_t&>();
    std::string key;
    return items('}', depth, key, [&] {
      if (!drop_.empty() && key == drop_) return skip(depth);
      const MemberFilter* sub = nullptr;
      if (filter) {
        sub = filter->find(key);
        if (!sub) return skip(depth);
        if (sub->keeps_all()) sub = nullptr;
      }
      // Parsed in place, in the map's node. nlohmann (and Go) keep the last of duplicated keys:
      // a repeated key's earlier value is dropped first. (An end() hint for keys that arrive
      // sorted cost more than it saved: struct fields come in declaration order.)
      auto [it, added] = members.try_emplace(key);
      if (!added) it->second = nullptr;
      return value(it->second, depth, sub);
    });
  }

  // Arrays are transparent to a filter: it applies to each element.
  bool array(json& out, int depth, const MemberFilter* filter) {
    out = json::value_t::array;
    auto& elements = out.get_ref<json::array_t&>();
    std::string unused;
    return items(']', depth, unused, [&] {
      elements.emplace_back();
      return value(elements.back(), depth, filter);
    });
  }

  // Checks one value exactly as value() would, building nothing (a dropped member): keys and
  // strings are checked without being copied anywhere.
  bool skip(int depth) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
      case '[':
        return items<false>(*p_ == '{' ? '}' : ']', depth + 1, scratch_,
                            [&] { return skip(depth + 1); });
      case '"':
        return string_impl<false>(scratch_);
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default: {
        json n;
        return number(n);
      }
    }
  }

  // At the opening quote; appends the decoded string to out.
  bool string(std::string& out) { return string_impl<true>(out); }

  // kKeep false (a skipped value): the string is checked exactly as when kept, and out is left
  // alone. Most of a pod's text is skipped by the informers' filters; copying it showed.
  template <bool kKeep>
  bool string_impl(std::string& out) {
    ++p_;  // '"'
    for (;;) {
      // A run of printable ASCII but the quote and the backslash; what ends it is the closing
      // quote, an escape, or a byte the fast path leaves to nlohmann (control characters are
      // invalid JSON; non-ASCII needs UTF-8 validation).
      const char* run = p_;
      p_ = plain_run_end<false>(p_, end_);
      if constexpr (kKeep) out.append(run, static_cast<std::size_t>(p_ - run));
      if (p_ == end_) return false;
      const char c = *p_++;
      if (c == '"') return true;
      if (c != '\\') return false;  // a control character or a non-ASCII byte
      if (p_ == end_) return false;
      switch (*p_++) {
        case '"':
          if constexpr (kKeep) out += '"';
          break;
        case '\\':
          if constexpr (kKeep) out += '\\';
          break;
        case '/':
          if constexpr (kKeep) out += '/';
          break;
        case 'b':
          if constexpr (kKeep) out += '\b';
          break;
        case 'f':
          if constexpr (kKeep) out += '\f';
          break;
        case 'n':
          if constexpr (kKeep) out += '\n';
          break;
        case 'r':
          if constexpr (kKeep) out += '\r';
          break;
        case 't':
          if constexpr (kKeep) out += '\t';
          break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            std::uint32_t low = 0;
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
            p_ += 2;
            if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return false;
          }
          if constexpr (kKeep) append_utf8(out, cp);
          break;
        }
        default:
          return false;
      }
    }
  }

  bool hex4(std::uint32_t& cp) {
    if (end_ - p_ < 4) return false;
    for (int i = 0; i < 4; ++i) {
      const int h = hex_value(p_[i]);
      if (h < 0) return false;
      cp = cp << 4 | static_cast<std::uint32_t>(h);
    }
    p_ += 4;
    return true;
  }

  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  // JSON's number grammar, checked strictly (no leading zeros, no bare '.', no '+').
  bool number(json& out) {
    const char* start = p_;
    const bool negative = p_ != end_ && *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_ || !is_digit(*p_)) return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != end_ && is_digit(*p_)) ++p_;
    }
    bool integer = true;
    if (p_ != end_ && *p_ == '.') {
      integer = false;
      ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      while (p_ != end_ && is_digit(*p_)) ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      integer = false;
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      while (p_ != end_ && is_digit(*p_)) ++p_;
    }
    if (integer) {
      if (negative) {
        std::int64_t v = 0;
        auto [ptr, ec] = std::from_chars(start, p_, v);
        if (ec != std::errc() || ptr != p_) return false;  // beyond int64: nlohmann's double
        out = v;
      } else {
        std::uint64_t v = 0;
        auto [ptr, ec] = std::from_chars(start, p_, v);
        if (ec != std::errc() || ptr != p_) return false;
        out = v;
      }
      return true;
    }
    double v = 0;
    auto [ptr, ec] = std::from_chars(start, p_, v);
    // Out of range (overflow is nlohmann's error, underflow its denormal or zero): slow path.
    if (ec != std::errc() || ptr != p_ || !std::isfinite(v)) return false;
    out = v;
    return true;
  }

  const char* p_;
  const char* end_;
  std::string_view drop_;
  std::string scratch_;      // the string argument of items()/string_impl() when they keep nothing
  std::size_t values_left_;  // values the tree may still take (try_parse's max_values)
};

}  // namespace

namespace {

const MemberFilter* narrowing(const MemberFilter& filter) {
  return filter.keeps_all() ? nullptr : &filter;
}

std::optional<json> fast(std::string_view text, std::string_view drop_member,
                         const MemberFilter* filter,
                         std::size_t max_values = std::numeric_limits<std::size_t>::max()) {
  json out;
  Parser parser(text, drop_member, max_values);
  if (!parser.document(out, filter)) return std::nullopt;
  return out;
}

// nlohmann's parser callback that leaves out members named `drop` (none when empty).
json::parser_callback_t dropping(std::string_view drop) {
  if (drop.empty()) return nullptr;
  return [drop](int, json::parse_event_t event, json& parsed) {
    return !(event == json::parse_event_t::key && parsed.is_string() &&
             parsed.get_ref<const std::string&>() == drop);
  };
}

// nlohmann's parse of what the fast path declined, then the filter applied to its tree.
json slow(std::string_view text, std::string_view drop_member, const MemberFilter* filter,
          bool allow_exceptions) {
  json out = json::parse(text.begin(), text.end(), dropping(drop_member), allow_exceptions);
  if (filter && !out.is_discarded()) prune(out, *filter);
  return out;
}

}  // namespace

std::optional<json> try_parse(std::string_view text, std::string_view drop_member) {
  return fast(text, drop_member, nullptr);
}

std::optional<json> try_parse(std::string_view text, const MemberFilter& filter,
                              std::string_view drop_member, std::size_t max_values) {
  return fast(text, drop_member, narrowing(filter), max_values);
}

json parse(std::string_view text, std::string_view drop_member) {
  if (auto done = fast(text, drop_member, nullptr)) return std::move(*done);
  return slow(text, drop_member, nullptr, true);
}

json parse(std::string_view text, const MemberFilter& filter, std::string_view drop_member) {
  if (auto done = fast(text, drop_member, narrowing(filter))) return std::move(*done);
  return slow(text, drop_member, narrowing(filter), true);
}

json parse_or_discarded(std::string_view text, std::string_view drop_member) {
  if (auto done = fast(text, drop_member, nullptr)) return std::move(*done);
  return slow(text, drop_member, nullptr, false);
}

json parse_or_discarded(std::string_view text, const MemberFilter& filter,
                        std::string_view drop_member) {
  if (auto done = fast(text, drop_member, narrowing(filter))) return std::move(*done);
  return slow(text, drop_member, narrowing(filter), false);
}

bool identical(const json& a, const json& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
        if (ia.key() != ib.key() || !identical(*ia, *ib)) return false;
      }
      return true;
    }
    case json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!identical(a[i], b[i])) return false;
      }
      return true;
    }
    default:
      return a == b;
  }
}

}  // namespace vc::fastjson
