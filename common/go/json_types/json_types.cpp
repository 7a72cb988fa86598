#include "common/go/json_types/json_types.h"

#include <utility>

namespace vc::go {

using nlohmann::json;

const GoField* GoType::field(std::string_view json_name) const {
  for (const auto& f : fields) {
    if (f.json_name == json_name) return &f;
  }
  return nullptr;
}

GoType* GoTypes::add(GoKind kind, std::string type_name) {
  auto& t = types_.emplace_back();
  t.kind = kind;
  t.type_name = std::move(type_name);
  return &t;
}

const GoType* GoTypes::scalar(GoKind kind, std::string type_name) {
  return add(kind, std::move(type_name));
}

const GoType* GoTypes::slice(const GoType* elem) {
  auto* t = add(GoKind::Slice, "[]" + elem->type_name);
  t->elem = elem;
  return t;
}

const GoType* GoTypes::map(const GoType* elem, std::string type_name) {
  if (type_name.empty()) type_name = "map[string]" + elem->type_name;
  auto* t = add(GoKind::Map, std::move(type_name));
  t->elem = elem;
  return t;
}

const GoType* GoTypes::structure(std::string type_name, std::vector<GoField> fields, bool open) {
  auto* t = add(GoKind::Struct, std::move(type_name));
  const auto dot = t->type_name.rfind('.');
  t->struct_name = dot == std::string::npos ? t->type_name : t->type_name.substr(dot + 1);
  t->fields = std::move(fields);
  t->open = open;
  return t;
}

json scalar_zero(GoKind kind) {
  switch (kind) {
    case GoKind::String:
      return "";
    case GoKind::Bool:
      return false;
    case GoKind::Int32:
    case GoKind::Int64:
    case GoKind::Int:
    case GoKind::Float64:
      return 0;
    default:
      return nullptr;
  }
}

const char* json_kind(const json& value) {
  switch (value.type()) {
    case json::value_t::string:
      return "string";
    case json::value_t::boolean:
      return "bool";
    case json::value_t::array:
      return "array";
    case json::value_t::object:
      return "object";
    case json::value_t::null:
      return "null";
    default:
      return "number";
  }
}

std::string json_number_text(const json& number) {
  std::string text = number.dump();
  if (auto plus = text.find("e+"); plus != std::string::npos) text.erase(plus + 1, 1);
  return text;
}

std::optional<std::string> scalar_mismatch(const json& value, GoKind kind) {
  if (scalar_fits(value, kind)) return std::nullopt;
  const bool integer = kind == GoKind::Int32 || kind == GoKind::Int64 || kind == GoKind::Int;
  if (integer && value.is_number()) return "number " + json_number_text(value);
  return std::string(json_kind(value));
}

std::string unmarshal_type_error(std::string_view what, const GoType& type,
                                 std::string_view struct_name, std::string_view field_path) {
  std::string out = "json: cannot unmarshal ";
  out += what;
  if (field_path.empty()) {
    out += " into Go value of type ";
  } else {
    out += " into Go struct field ";
    out += struct_name;
    out += '.';
    out += field_path;
    out += " of type ";
  }
  out += type.type_name;
  return out;
}

std::size_t json_depth(const json& value) {
  // Only containers go on the stack, and their members are read straight from the map or
  // vector: this runs over every job review, and nlohmann's generic iterator was most of it.
  std::size_t deepest = 1;
  std::vector<std::pair<const json*, std::size_t>> stack;
  auto reach = [&](const json& child, std::size_t depth) {
    if (child.is_structured()) {
      stack.emplace_back(&child, depth);
    } else if (depth > deepest) {
      deepest = depth;
    }
  };
  reach(value, 1);
  while (!stack.empty()) {
    const auto [v, depth] = stack.back();
    stack.pop_back();
    if (depth > deepest) deepest = depth;
    if (v->is_object()) {
      for (const auto& [_, child] : v->get_ref<const json::object_t&>()) reach(child, depth + 1);
    } else {
      for (const auto& child : v->get_ref<const json::array_t&>()) reach(child, depth + 1);
    }
  }
  return deepest;
}

}  // namespace vc::go
