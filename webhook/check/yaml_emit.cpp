#include "webhook/check/yaml_emit.h"

#include <cstdio>

#include "common/go/yaml_scalar.h"

namespace vc::webhook::check {
namespace {

void pad(std::string& out, int indent) {
  out.append(static_cast<std::size_t>(indent), ' ');
}

// One UTF-8 sequence at s[i]: its code point and length, or length 0 when invalid.
std::pair<unsigned, std::size_t> decode_utf8(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t len = c < 0x80             ? 1
                    : (c & 0xe0) == 0xc0 ? 2
                    : (c & 0xf0) == 0xe0 ? 3
                    : (c & 0xf8) == 0xf0 ? 4
                                         : 0;
  if (len == 0 || i + len > s.size()) return {0, 0};
  unsigned cp = len == 1 ? c : len == 2 ? (c & 0x1fu) : len == 3 ? (c & 0x0fu) : (c & 0x07u);
  for (std::size_t k = 1; k < len; ++k) {
    const auto cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xc0) != 0x80) return {0, 0};
    cp = (cp << 6) | (cc & 0x3fu);
  }
  static constexpr unsigned kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return {0, 0};
  return {cp, len};
}

// Code points YAML treats as line breaks or a byte order mark: never written raw.
bool special_code_point(unsigned cp) {
  return cp == 0x85 || cp == 0x2028 || cp == 0x2029 || cp == 0xfeff;
}

bool is_indicator(char c) {
  return std::string_view("-?:,[]{}#&*!|>'\"%@`").find(c) != std::string_view::npos;
}

// A literal block ("|") keeps the text readable; it is used when the text has a line break and
// nothing a block cannot carry (other control characters, a leading blank that would be taken
// for indentation).
bool literal_ok(std::string_view s) {
  if (s.find('\n') == std::string_view::npos) return false;
  const std::size_t first = s.find_first_not_of('\n');
  if (first == std::string_view::npos) return false;
  if (s[first] == ' ' || s[first] == '\t') return false;
  for (std::size_t i = 0; i < s.size();) {
    auto [cp, len] = decode_utf8(s, i);
    if (len == 0 || special_code_point(cp)) return false;
    if (cp < 0x20 && cp != '\n' && cp != '\t') return false;
    if (cp == 0x7f) return false;
    i += len;
  }
  return true;
}

void emit_literal(std::string_view s, int indent, std::string& out) {
  std::size_t trailing = 0;
  while (trailing < s.size() && s[s.size() - 1 - trailing] == '\n') ++trailing;
  const std::string_view body = s.substr(0, s.size() - trailing);
  out += trailing == 0 ? " |-\n" : trailing == 1 ? " |\n" : " |+\n";
  std::size_t pos = 0;
  while (pos <= body.size()) {
    const std::size_t end = body.find('\n', pos);
    const std::string_view line =
        body.substr(pos, end == std::string_view::npos ? body.npos : end - pos);
    if (!line.empty()) pad(out, indent);
    out += line;
    out += '\n';
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  for (std::size_t i = 1; i < trailing; ++i) out += '\n';
}

// Writes " <scalar>\n" after a key or "-"; block scalars put their lines at indent.
void emit_scalar(const nlohmann::json& v, int indent, std::string& out) {
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (plain_safe(s)) {
      out += ' ';
      out += s;
      out += '\n';
    } else if (literal_ok(s)) {
      emit_literal(s, indent, out);
    } else {
      out += ' ';
      out += double_quoted(s);
      out += '\n';
    }
    return;
  }
  out += ' ';
  if (v.is_object()) {
    out += "{}";
  } else if (v.is_array()) {
    out += "[]";
  } else {
    out += v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  out += '\n';
}

void emit_map(const nlohmann::json& map, int indent, std::string& out);
void emit_sequence(const nlohmann::json& seq, int indent, std::string& out);

bool nested(const nlohmann::json& v) {
  return v.is_structured() && !v.empty();
}

void emit_map(const nlohmann::json& map, int indent, std::string& out) {
  for (const auto& [key, value] : map.items()) {
    pad(out, indent);
    out += plain_safe(key) ? key : double_quoted(key);
    out += ':';
    if (value.is_object() && !value.empty()) {
      out += '\n';
      emit_map(value, indent + 2, out);
    } else if (value.is_array() && !value.empty()) {
      out += '\n';
      emit_sequence(value, indent, out);  // kubectl style: "- " level with the key
    } else {
      emit_scalar(value, indent + 2, out);
    }
  }
}

void emit_sequence(const nlohmann::json& seq, int indent, std::string& out) {
  for (const auto& item : seq) {
    pad(out, indent);
    out += '-';
    if (nested(item)) {
      // The item's first line goes right after "- ": write the block one level deeper and drop
      // the indentation of its first line.
      std::string block;
      if (item.is_object()) {
        emit_map(item, indent + 2, block);
      } else {
        emit_sequence(item, indent + 2, block);
      }
      out += ' ';
      out.append(block, static_cast<std::size_t>(indent + 2));
    } else {
      emit_scalar(item, indent + 2, out);
    }
  }
}

}  // namespace

bool plain_safe(std::string_view s) {
  if (s.empty() || s.front() == ' ' || s.back() == ' ' || s.back() == ':') return false;
  if (is_indicator(s.front())) return false;
  if (s.starts_with("...") || s == "<<") return false;
  if (s.find(": ") != s.npos || s.find(" #") != s.npos) return false;
  for (char c : s) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return go::resolve_plain(s).kind == go::ResolvedScalar::Kind::String;
}

std::string double_quoted(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    auto [cp, len] = decode_utf8(s, i);
    if (len == 0) {
      out += "\\uFFFD";
      ++i;
      continue;
    }
    if (cp == '"' || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp < 0x20 || cp == 0x7f || special_code_point(cp)) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04X", cp);
      out += buf;
    } else {
      out.append(s.substr(i, len));
    }
    i += len;
  }
  out += '"';
  return out;
}

std::string to_yaml(const nlohmann::json& value) {
  std::string out;
  if (value.is_object() && !value.empty()) {
    emit_map(value, 0, out);
  } else if (value.is_array() && !value.empty()) {
    emit_sequence(value, 0, out);
  } else {
    emit_scalar(value, 2, out);
    out.erase(0, 1);  // no key before a top-level scalar
  }
  return out;
}

}  // namespace vc::webhook::check
