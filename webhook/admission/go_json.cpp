#include "webhook/admission/go_json.h"

#include <charconv>
#include <cstdint>
#include <string_view>

#include "common/go/utf8.h"
#include "common/json/plain_run.h"

namespace vc::webhook {
namespace {

using nlohmann::json;

// False, having written part of it, when s is not valid UTF-8 (nlohmann's replacement of bad
// bytes is its own: go_json() then starts over on go_json_via_dump()).
bool write_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    // Copied in runs of printable ASCII but '"', '\\' and the HTML-significant <, > and &.
    // The rest is escaped, or (bytes >= 0x80) checked as UTF-8.
    const std::size_t run = i;
    i = static_cast<std::size_t>(fastjson::plain_run_end<true>(s.data() + i, s.data() + s.size()) -
                                 s.data());
    out.append(s.data() + run, i - run);
    if (i == s.size()) break;
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t len = go::utf8_sequence_length(s, i);
      if (len == 0) return false;
      // U+2028 and U+2029 (E2 80 A8, E2 80 A9) are escaped; other sequences are copied.
      if (len == 3 && c == 0xE2 && s[i + 1] == '\x80' &&
          (s[i + 2] == '\xa8' || s[i + 2] == '\xa9')) {
        out += s[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      } else {
        out.append(s.data() + i, len);
      }
      i += len;
      continue;
    }
    ++i;
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
      default:  // another control character
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
    }
  }
  out += '"';
  return true;
}

template <class Int>
void write_integer(std::string& out, Int n) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, r.ptr);
}

// False (see write_string) when a string in v is not valid UTF-8.
bool write_value(std::string& out, const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      out += "null";
      return true;
    case json::value_t::discarded:  // never in a parsed review; kept as dump() wrote it
      out += go_json_via_dump(v);
      return true;
    case json::value_t::boolean:
      out += v.get<bool>() ? "true" : "false";
      return true;
    case json::value_t::number_integer:
      write_integer(out, v.get<std::int64_t>());
      return true;
    case json::value_t::number_unsigned:
      write_integer(out, v.get<std::uint64_t>());
      return true;
    case json::value_t::number_float:
      // Rare in a review; nlohmann's shortest round-trip form, as dump() writes it.
      out += v.dump();
      return true;
    case json::value_t::string:
      return write_string(out, v.get_ref<const std::string&>());
    case json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v.get_ref<const json::array_t&>()) {
        if (!first) out += ',';
        first = false;
        if (!write_value(out, e)) return false;
      }
      out += ']';
      return true;
    }
    case json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : v.get_ref<const json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        if (!write_string(out, key)) return false;
        out += ':';
        if (!write_value(out, value)) return false;
      }
      out += '}';
      return true;
    }
    case json::value_t::binary:
      out += v.dump();  // never parsed from JSON; dump() writes it as an object
      return true;
  }
  return true;
}

}  // namespace

std::string go_json(const nlohmann::json& v) {
  std::string out;
  out.reserve(256);
  if (!write_value(out, v)) return go_json_via_dump(v);  // invalid UTF-8 somewhere (rare)
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
