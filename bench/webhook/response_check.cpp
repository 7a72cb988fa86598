#include "bench/webhook/response_check.h"

#include <cctype>
#include <cstring>

namespace vc::bench {
namespace {

constexpr int kMaxDepth = 64;

// A recursive-descent scanner over one JSON text. It validates structure (objects, arrays,
// strings with their escapes, number and literal characters) but does not decode anything.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : p_(text.data()), begin_(p_), end_(p_ + text.size()) {}

  std::optional<std::string> scan(ReviewAnswer& out) {
    skip_ws();
    if (peek() == '{') {
      if (!object(0, [&](std::string_view key) { return top_level_member(key, out); })) {
        return failure();
      }
    } else if (!value(0)) {
      return failure();
    }
    skip_ws();
    if (p_ != end_) return failure("trailing data");
    return std::nullopt;
  }

 private:
  bool top_level_member(std::string_view key, ReviewAnswer& out) {
    if (key == "apiVersion") return string_or_skip(out.api_version);
    if (key == "kind") return string_or_skip(out.kind);
    if (key == "response" && peek() == '{') {
      out.has_response = true;
      return object(1, [&](std::string_view k) { return response_member(k, out); });
    }
    return value(1);
  }

  bool response_member(std::string_view key, ReviewAnswer& out) {
    if (key == "uid") return string_or_skip(out.uid);
    if (key == "allowed") {
      if (literal("true")) {
        out.allowed = true;
        return true;
      }
      if (literal("false")) {
        out.allowed = false;
        return true;
      }
      return value(2);
    }
    if (key == "status" && peek() == '{') {
      return object(2, [&](std::string_view k) {
        return k == "message" ? string_or_skip(out.message) : value(3);
      });
    }
    return value(2);
  }

  // Reads a string into out if the value is one; skips any other value.
  bool string_or_skip(std::string_view& out) {
    if (peek() == '"') return string(out);
    return value(2);
  }

  template <typename OnMember>
  bool object(int depth, OnMember&& on_member) {
    if (depth >= kMaxDepth) return fail("nesting too deep");
    ++p_;  // '{'
    skip_ws();
    if (peek() == '}') {
      ++p_;
      return true;
    }
    while (true) {
      skip_ws();
      std::string_view key;
      if (peek() != '"' || !string(key)) return fail("expected a member name");
      skip_ws();
      if (peek() != ':') return fail("expected ':'");
      ++p_;
      skip_ws();
      if (!on_member(key)) return false;
      skip_ws();
      if (peek() == ',') {
        ++p_;
        continue;
      }
      if (peek() == '}') {
        ++p_;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }

  bool array(int depth) {
    if (depth >= kMaxDepth) return fail("nesting too deep");
    ++p_;  // '['
    skip_ws();
    if (peek() == ']') {
      ++p_;
      return true;
    }
    while (true) {
      skip_ws();
      if (!value(depth + 1)) return false;
      skip_ws();
      if (peek() == ',') {
        ++p_;
        continue;
      }
      if (peek() == ']') {
        ++p_;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  bool value(int depth) {
    skip_ws();
    switch (peek()) {
      case '{':
        return object(depth, [&](std::string_view) { return value(depth + 1); });
      case '[':
        return array(depth);
      case '"': {
        std::string_view ignored;
        return string(ignored);
      }
      case 't':
        return literal("true") || fail("bad literal");
      case 'f':
        return literal("false") || fail("bad literal");
      case 'n':
        return literal("null") || fail("bad literal");
      default:
        return number();
    }
  }

  // At '"': the raw contents up to the closing quote.
  bool string(std::string_view& out) {
    const char* start = ++p_;
    while (p_ != end_) {
      const char c = *p_;
      if (c == '"') {
        out = std::string_view(start, static_cast<std::size_t>(p_ - start));
        ++p_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in string");
      if (c == '\\') {
        if (++p_ == end_) break;
        if (*p_ == 'u') {
          for (int i = 0; i < 4; ++i) {
            if (++p_ == end_ || !std::isxdigit(static_cast<unsigned char>(*p_))) {
              return fail("bad \\u escape");
            }
          }
        } else if (*p_ == '\0' || std::strchr("\"\\/bfnrt", *p_) == nullptr) {
          return fail("bad escape");
        }
      }
      ++p_;
    }
    return fail("unterminated string");
  }

  // A loose number check: the JSON number alphabet, starting with '-' or a digit.
  bool number() {
    if (p_ == end_ || !(*p_ == '-' || (*p_ >= '0' && *p_ <= '9'))) {
      return fail("expected a value");
    }
    while (p_ != end_ && *p_ != '\0' && std::strchr("0123456789+-.eE", *p_) != nullptr) ++p_;
    return true;
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() ||
        std::string_view(p_, word.size()) != word) {
      return false;
    }
    p_ += word.size();
    return true;
  }

  void skip_ws() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  char peek() const { return p_ == end_ ? '\0' : *p_; }

  bool fail(const char* what) {
    if (error_ == nullptr) {
      error_ = what;
      error_at_ = p_;
    }
    return false;
  }
  std::string failure(const char* what = nullptr) {
    if (what != nullptr) fail(what);
    return std::string("malformed JSON at byte ") + std::to_string(error_at_ - begin_) + ": " +
           (error_ ? error_ : "unexpected input");
  }

  const char* p_;
  const char* const begin_;
  const char* const end_;
  const char* error_ = nullptr;
  const char* error_at_ = nullptr;
};

std::string excerpt(std::string_view body) {
  constexpr std::size_t kMax = 200;
  std::string out(body.substr(0, kMax));
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  if (body.size() > kMax) out += "...";
  return out;
}

}  // namespace

std::optional<std::string> scan_review_answer(std::string_view body, ReviewAnswer& out) {
  out = ReviewAnswer{};
  return Scanner(body).scan(out);
}

std::optional<std::string> check_review_response(unsigned status, std::string_view body,
                                                 std::string_view expected_uid,
                                                 bool expect_allowed) {
  if (status != 200) {
    return "HTTP " + std::to_string(status) + ": " + excerpt(body);
  }
  ReviewAnswer a;
  if (auto err = scan_review_answer(body, a)) {
    return *err + "; body: " + excerpt(body);
  }
  if (a.kind != "AdmissionReview" || a.api_version != "admission.k8s.io/v1") {
    return "not an admission.k8s.io/v1 AdmissionReview (kind '" + std::string(a.kind) +
           "', apiVersion '" + std::string(a.api_version) + "'): " + excerpt(body);
  }
  if (!a.has_response) return "AdmissionReview without a response: " + excerpt(body);
  if (a.uid != expected_uid) {
    return "response.uid '" + std::string(a.uid) + "' does not match request uid '" +
           std::string(expected_uid) + "'";
  }
  if (!a.allowed) return "response.allowed is missing or not a boolean: " + excerpt(body);
  if (*a.allowed != expect_allowed) {
    std::string msg = std::string("allowed=") + (*a.allowed ? "true" : "false") + ", expected " +
                      (expect_allowed ? "allowed" : "denied");
    if (!a.message.empty()) msg += ": " + excerpt(a.message);
    return msg;
  }
  return std::nullopt;
}

}  // namespace vc::bench
