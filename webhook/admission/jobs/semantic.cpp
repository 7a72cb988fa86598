#include "webhook/admission/jobs/semantic.h"

#include "common/api/quantity.h"
#include "common/api/time.h"

namespace vc::webhook::jobs {

using go::GoField;
using go::GoKind;
using go::GoType;
using nlohmann::json;

namespace {

// The JSON Go would marshal for the zero value of `type`, or null where that is nil.
json zero_of(const GoType& type) {
  switch (type.kind) {
    case GoKind::Duration:
    case GoKind::Time:
      return "";
    case GoKind::Quantity:
      return "0";
    case GoKind::Struct:
      return json::object();
    default:
      return go::scalar_zero(type.kind);
  }
}

bool is_zero(const json& normal, const GoType& type) {
  if (normal.is_null()) return true;
  return normal == zero_of(type);
}

}  // namespace

json semantic_normal_form(const json& value, const GoType& type) {
  if (value.is_null()) return zero_of(type);
  switch (type.kind) {
    case GoKind::Any:
      return value;
    case GoKind::Quantity: {
      auto q = api::quantity_from_json(value);
      return q ? json(q->canonical_string()) : value;
    }
    case GoKind::Time: {
      if (!value.is_string()) return value;
      auto t = api::parse_time(value.get_ref<const std::string&>());
      return t ? json(api::format_micro_time(*t)) : value;
    }
    case GoKind::Slice: {
      if (!value.is_array()) return value;
      if (value.empty()) return nullptr;
      json out = json::array();
      for (const auto& e : value) out.push_back(semantic_normal_form(e, *type.elem));
      return out;
    }
    case GoKind::Map: {
      if (!value.is_object()) return value;
      if (value.empty()) return nullptr;
      json out = json::object();
      for (const auto& [k, e] : value.items()) out[k] = semantic_normal_form(e, *type.elem);
      return out;
    }
    case GoKind::Struct: {
      if (!value.is_object()) return value;
      json out = json::object();
      for (const auto& [k, child] : value.items()) {
        const GoField* f = type.field(k);
        if (f == nullptr) {
          if (type.open && !child.is_null()) out[k] = child;
          continue;
        }
        if (f->pointer) {
          if (!child.is_null()) out[k] = semantic_normal_form(child, *f->type);
          continue;
        }
        json n = semantic_normal_form(child, *f->type);
        if (!is_zero(n, *f->type)) out[k] = std::move(n);
      }
      return out;
    }
    default:
      return value;
  }
}

bool semantic_equal(const json& a, const json& b, const GoType& type) {
  return semantic_normal_form(a, type) == semantic_normal_form(b, type);
}

namespace {

// Length of the Unicode white-space character at the start of s, or 0.
std::size_t space_at(std::string_view s) {
  if (s.empty()) return 0;
  const auto c0 = static_cast<unsigned char>(s[0]);
  if (c0 == ' ' || (c0 >= '\t' && c0 <= '\r')) return 1;
  if (s.size() >= 2 && c0 == 0xc2) {
    const auto c1 = static_cast<unsigned char>(s[1]);
    if (c1 == 0x85 || c1 == 0xa0) return 2;
  }
  if (s.size() >= 3) {
    const auto c1 = static_cast<unsigned char>(s[1]);
    const auto c2 = static_cast<unsigned char>(s[2]);
    if (c0 == 0xe1 && c1 == 0x9a && c2 == 0x80) return 3;  // U+1680
    if (c0 == 0xe2 && c1 == 0x80 && (c2 <= 0x8a || c2 == 0xa8 || c2 == 0xa9 || c2 == 0xaf)) {
      return c2 >= 0x80 ? 3 : 0;  // U+2000-200A, 2028/9, 202F
    }
    if (c0 == 0xe2 && c1 == 0x81 && c2 == 0x9f) return 3;  // U+205F
    if (c0 == 0xe3 && c1 == 0x80 && c2 == 0x80) return 3;  // U+3000
  }
  return 0;
}

// Length of the white-space character ending s, or 0.
std::size_t space_before_end(std::string_view s) {
  for (std::size_t len = 1; len <= 3 && len <= s.size(); ++len) {
    if (space_at(s.substr(s.size() - len)) == len) return len;
  }
  return 0;
}

}  // namespace

std::string go_trim_space(std::string_view s) {
  while (std::size_t n = space_at(s)) s.remove_prefix(n);
  while (std::size_t n = space_before_end(s)) s.remove_suffix(n);
  return std::string(s);
}

}  // namespace vc::webhook::jobs
