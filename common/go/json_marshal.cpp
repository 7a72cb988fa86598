#include "common/go/json_marshal.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "common/go/json_float.h"
#include "common/go/short_escape.h"
#include "common/go/utf8.h"
#include "common/json/plain_run.h"

namespace vc::go {
namespace {

using nlohmann::json;

void write_string(std::string& out, std::string_view s) {
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
      const std::size_t len = utf8_sequence_length(s, i);
      if (len == 0) {  // Go replaces each byte that starts no valid sequence
        out += "\\ufffd";
        ++i;
        continue;
      }
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
    if (const char* e = short_escape(c, false)) {
      out += e;
      continue;
    }
    switch (c) {
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
    case json::value_t::discarded:  // never in a parsed document
      out += "null";
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
    case json::value_t::number_float: {
      // NaN and infinities cannot come from JSON text; Go refuses to marshal them, null here.
      const double f = v.get<double>();
      out += std::isfinite(f) ? format_json_float(f) : "null";
      return;
    }
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

std::string marshal_json(const nlohmann::json& v) {
  std::string out;
  out.reserve(256);
  write_value(out, v);
  return out;
}

}  // namespace vc::go
