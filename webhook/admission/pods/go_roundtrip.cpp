#include "webhook/admission/pods/go_roundtrip.h"

#include <string>
#include <string_view>
#include <vector>

#include "common/go/unicode.h"

namespace vc::webhook::pods {
namespace {

using go::GoField;
using go::GoKind;
using go::GoType;
using nlohmann::json;

class RoundTrip {
 public:
  json value(const json& in, const GoType& t, bool pointer) {
    if (in.is_null()) return zero(t, pointer);
    switch (t.kind) {
      case GoKind::Any:
      case GoKind::Quantity:
      case GoKind::Duration:
      case GoKind::Time:
        return in;  // kept as given: the types re-encoded here (affinity, toleration) have none
      case GoKind::Slice: {
        if (!in.is_array()) return mismatch(go::json_kind(in), t);
        json out = json::array();
        for (const auto& e : in) out.push_back(value(e, *t.elem, false));
        return out;
      }
      case GoKind::Map: {
        if (!in.is_object()) return mismatch(go::json_kind(in), t);
        json out = json::object();
        for (const auto& [k, v] : in.items()) out[k] = value(v, *t.elem, false);
        return out;
      }
      case GoKind::Struct:
        return object(in, t);
      default:  // strings, bools and numbers
        if (auto what = go::scalar_mismatch(in, t.kind)) return mismatch(*what, t);
        return in;
    }
  }

  const std::string& error() const { return error_; }

 private:
  json object(const json& in, const GoType& t) {
    if (!in.is_object()) return mismatch(go::json_kind(in), t);
    json out = json::object();
    const std::string_view outer = struct_name_;
    for (const auto& field : t.fields) {
      const json* found = nullptr;
      if (auto it = in.find(field.json_name); it != in.end()) {
        found = &*it;
      } else {
        for (const auto& [k, v] : in.items()) {
          if (go::ascii_equal_fold(k, field.json_name)) found = &v;
        }
      }
      struct_name_ = t.struct_name;
      path_.push_back(field.json_name);
      json encoded =
          found ? value(*found, *field.type, field.pointer) : zero(*field.type, field.pointer);
      path_.pop_back();
      struct_name_ = outer;
      if (!(field.omitempty && empty(encoded, field))) out[field.json_name] = std::move(encoded);
    }
    return out;
  }

  // The zero value as Go encodes it.
  json zero(const GoType& t, bool pointer) {
    if (pointer) return nullptr;
    // A struct is its fields' zero values; a nil slice, map or interface is null.
    if (t.kind == GoKind::Struct) return object(json::object(), t);
    return go::scalar_zero(t.kind);
  }

  // Go's isEmptyValue, which omitempty consults; structs are never empty.
  static bool empty(const json& v, const GoField& field) {
    if (v.is_null()) return true;
    if (field.pointer || field.type->kind == GoKind::Struct) return false;
    if (v.is_string()) return v.get_ref<const std::string&>().empty();
    if (v.is_array() || v.is_object()) return v.empty();
    if (v.is_boolean()) return !v.get<bool>();
    if (v.is_number()) return v == 0;
    return false;
  }

  json mismatch(std::string_view what, const GoType& t) {
    if (error_.empty()) {
      std::string path;
      for (std::string_view p : path_) {
        if (!path.empty()) path += '.';
        path += p;
      }
      error_ = go::unmarshal_type_error(what, t, struct_name_, path);
    }
    return nullptr;
  }

  std::string error_;
  std::string_view struct_name_;        // the innermost struct's, in the type table
  std::vector<std::string_view> path_;  // JSON names of the fields, in the type table
};

}  // namespace

api::Expected<json> go_roundtrip(const json& value, const GoType& type) {
  RoundTrip rt;
  json out = rt.value(value, type, false);
  if (!rt.error().empty()) return api::Unexpected{rt.error()};
  return out;
}

}  // namespace vc::webhook::pods
