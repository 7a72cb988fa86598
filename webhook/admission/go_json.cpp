#include "webhook/admission/go_json.h"

#include <charconv>
#include <cstdint>
#include <string_view>

namespace vc::webhook {
namespace {

using nlohmann::json;

// Strict UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF), the input nlohmann's
// dump() copies through unchanged.
bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + n >= s.size()) return false;  // truncated
    for (std::size_t k = 1; k <= n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = cp << 6 | (cc & 0x3F);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += n + 1;
  }
  return true;
}

// Does the document hold a string (value or key) that is not valid UTF-8?
bool has_invalid_utf8(const json& v) {
  switch (v.type()) {
    case json::value_t::string:
      return !valid_utf8(v.get_ref<const std::string&>());
    case json::value_t::array:
      for (const auto& e : v) {
        if (has_invalid_utf8(e)) return true;
      }
      return false;
    case json::value_t::object:
      for (const auto& [key, value] : v.items()) {
        if (!valid_utf8(key) || has_invalid_utf8(value)) return true;
      }
      return false;
    default:
      return false;
  }
}

// Bytes a string can be copied through in runs of: everything but '"', '\\', control
// characters, the HTML-significant <, > and &, and 0xE2 (the first byte of U+2028/U+2029).
constexpr auto kPlain = [] {
  struct Table {
    bool v[256];
  } t{};
  for (int c = 0x20; c < 256; ++c) t.v[c] = true;
  for (unsigned char c : {'"', '\\', '<', '>', '&'}) t.v[c] = false;
  t.v[0xE2] = false;
  return t;
}();

void write_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t run = i;
    while (i < s.size() && kPlain.v[static_cast<unsigned char>(s[i])]) ++i;
    out.append(s.data() + run, i - run);
    if (i == s.size()) break;
    const auto c = static_cast<unsigned char>(s[i++]);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '<':
        out += "\\u003c";
        break;
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      case 0xE2:
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; any other E2 sequence is copied.
        if (i + 1 < s.size() && s[i] == '\x80' && (s[i + 1] == '\xa8' || s[i + 1] == '\xa9')) {
          out += s[i + 1] == '\xa8' ? "\\u2028" : "\\u2029";
          i += 2;
        } else {
          out += static_cast<char>(c);
        }
        break;
      default:  // another control character
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
    }
  }
  out += '"';
}

template <class Int>
void write_integer(std::string& out, Int n) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, r.ptr);
}

void write_value(std::string& out, const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      out += "null";
      return;
    case json::value_t::discarded:  // never in a parsed review; kept as dump() wrote it
      out += go_json_via_dump(v);
      return;
    case json::value_t::boolean:
      out += v.get<bool>() ? "true" : "false";
      return;
    case json::value_t::number_integer:
      write_integer(out, v.get<std::int64_t>());
      return;
    case json::value_t::number_unsigned:
      write_integer(out, v.get<std::uint64_t>());
      return;
    case json::value_t::number_float:
      // Rare in a review; nlohmann's shortest round-trip form, as dump() writes it.
      out += v.dump();
      return;
    case json::value_t::string:
      write_string(out, v.get_ref<const std::string&>());
      return;
    case json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v.get_ref<const json::array_t&>()) {
        if (!first) out += ',';
        first = false;
        write_value(out, e);
      }
      out += ']';
      return;
    }
    case json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : v.get_ref<const json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        write_string(out, key);
        out += ':';
        write_value(out, value);
      }
      out += '}';
      return;
    }
    case json::value_t::binary:
      out += v.dump();  // never parsed from JSON; dump() writes it as an object
      return;
  }
}

}  // namespace

std::string go_json(const nlohmann::json& v) {
  if (has_invalid_utf8(v)) return go_json_via_dump(v);
  std::string out;
  out.reserve(256);
  write_value(out, v);
  return out;
}

std::string go_json_via_dump(const nlohmann::json& v) {
  // nlohmann keeps object keys sorted and escapes control characters like Go; Go additionally
  // escapes the HTML-significant <, > and & (and U+2028/U+2029, which dump() leaves as UTF-8).
  std::string raw = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // Copied in runs between the bytes that may need escaping; most documents have none of them.
  auto find_special = [&raw](std::size_t from) {
    for (std::size_t i = from; i < raw.size(); ++i) {
      const char c = raw[i];
      if (c == '<' || c == '>' || c == '&' || c == '\xe2') return i;
    }
    return std::string::npos;
  };
  std::size_t next = find_special(0);
  if (next == std::string::npos) return raw;
  std::string out;
  out.reserve(raw.size() + 16);
  std::size_t from = 0;
  for (; next != std::string::npos; next = find_special(from)) {
    out.append(raw, from, next - from);
    from = next + 1;
    const char c = raw[next];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (next + 2 < raw.size() && raw[next + 1] == '\x80' &&
               (raw[next + 2] == '\xa8' || raw[next + 2] == '\xa9')) {
      out += raw[next + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      from = next + 3;
    } else {
      out += c;  // another character starting with 0xe2
    }
  }
  out.append(raw, from, std::string::npos);
  return out;
}

}  // namespace vc::webhook
