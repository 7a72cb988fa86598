#include "webhook/admission/pods/go_roundtrip.h"

#include <string>
#include <vector>

#include "webhook/admission/field_error.h"

namespace vc::webhook::pods {
namespace {

using nlohmann::json;
using scheduling::GoField;
using scheduling::GoType;
using K = GoType::Kind;

bool equal_fold(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

std::string short_name(const std::string& name) {
  const auto dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

class RoundTrip {
 public:
  json value(const json& in, const GoType& t, bool pointer) {
    if (in.is_null()) return zero(t, pointer);
    switch (t.kind) {
      case K::Any:
        return in;
      case K::String:
        return in.is_string() ? in : mismatch(go_json_kind(in), t);
      case K::Bool:
        return in.is_boolean() ? in : mismatch(go_json_kind(in), t);
      case K::Float64:
      case K::Quantity:
        return in.is_number() ? in : mismatch(go_json_kind(in), t);
      case K::Int32:
      case K::Int64:
        return integer(in, t);
      case K::Slice: {
        if (!in.is_array()) return mismatch(go_json_kind(in), t);
        json out = json::array();
        for (const auto& e : in) out.push_back(value(e, *t.elem, false));
        return out;
      }
      case K::Map: {
        if (!in.is_object()) return mismatch(go_json_kind(in), t);
        json out = json::object();
        for (const auto& [k, v] : in.items()) out[k] = value(v, *t.elem, false);
        return out;
      }
      case K::Struct:
        return object(in, t);
    }
    return nullptr;
  }

  const std::string& error() const { return error_; }

 private:
  json object(const json& in, const GoType& t) {
    if (!in.is_object()) return mismatch(go_json_kind(in), t);
    json out = json::object();
    const std::string outer = struct_name_;
    for (const auto& field : t.fields) {
      const json* found = nullptr;
      if (auto it = in.find(field.name); it != in.end()) {
        found = &*it;
      } else {
        for (const auto& [k, v] : in.items()) {
          if (equal_fold(k, field.name)) found = &v;
        }
      }
      struct_name_ = short_name(t.name);
      path_.push_back(field.name);
      json encoded =
          found ? value(*found, *field.type, field.pointer) : zero(*field.type, field.pointer);
      path_.pop_back();
      struct_name_ = outer;
      if (!(field.omitempty && empty(encoded, field))) out[field.name] = std::move(encoded);
    }
    return out;
  }

  json integer(const json& in, const GoType& t) {
    const bool is32 = t.kind == K::Int32;
    // is_number_integer() is also true for unsigned numbers: test those first.
    if (in.is_number_unsigned()) {
      if (in.get<std::uint64_t>() <= (is32 ? INT32_MAX : INT64_MAX)) return in;
    } else if (in.is_number_integer()) {
      const auto v = in.get<std::int64_t>();
      if (!is32 || (v >= INT32_MIN && v <= INT32_MAX)) return in;
    }
    return mismatch(in.is_number() ? "number " + in.dump() : std::string(go_json_kind(in)), t);
  }

  // The zero value as Go encodes it.
  json zero(const GoType& t, bool pointer) {
    if (pointer) return nullptr;
    switch (t.kind) {
      case K::String:
        return "";
      case K::Bool:
        return false;
      case K::Int32:
      case K::Int64:
      case K::Float64:
        return 0;
      case K::Struct:
        return object(json::object(), t);
      default:
        return nullptr;  // nil slice, map, interface
    }
  }

  // Go's isEmptyValue, which omitempty consults; structs are never empty.
  static bool empty(const json& v, const GoField& field) {
    if (v.is_null()) return true;
    if (field.pointer || field.type->kind == K::Struct) return false;
    if (v.is_string()) return v.get_ref<const std::string&>().empty();
    if (v.is_array() || v.is_object()) return v.empty();
    if (v.is_boolean()) return !v.get<bool>();
    if (v.is_number()) return v == 0;
    return false;
  }

  json mismatch(const std::string& what, const GoType& t) {
    if (error_.empty()) {
      std::string path;
      for (const auto& p : path_) path += (path.empty() ? "" : ".") + p;
      error_ = path.empty() ? "json: cannot unmarshal " + what + " into Go value of type " + t.name
                            : "json: cannot unmarshal " + what + " into Go struct field " +
                                  struct_name_ + "." + path + " of type " + t.name;
    }
    return nullptr;
  }

  std::string error_;
  std::string struct_name_;
  std::vector<std::string> path_;
};

}  // namespace

api::Expected<json> go_roundtrip(const json& value, const GoType& type) {
  RoundTrip rt;
  json out = rt.value(value, type, false);
  if (!rt.error().empty()) return api::Unexpected{rt.error()};
  return out;
}

}  // namespace vc::webhook::pods
