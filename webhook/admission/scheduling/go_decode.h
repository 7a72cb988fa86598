#pragma once
// Go-compatible decoding of admission objects. Volcano unmarshals request.object into Go structs
// (sigs.k8s.io/json: case-sensitive keys, unknown keys ignored, null leaves the zero value), so
// a field of the wrong JSON type denies the request with Go's UnmarshalTypeError text:
//   json: cannot unmarshal string into Go struct field QueueSpec.spec.weight of type int32
// (innermost struct name, then the JSON path without indices or map keys). GoType describes the
// fields we model; go_decode_error() walks the JSON against it. After it returns "", the safe
// readers below read the object without any risk of nlohmann throwing.
//
// Header-only because webhook/admission/pods uses it too and has no link dependency on this
// module; it belongs in webhook/admission/ once that directory takes it.
//
// Threads: GoType trees are immutable after construction; every function is pure.

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "webhook/admission/field_error.h"

#include "common/api/quantity.h"
#include "webhook/admission/review.h"

namespace vc::webhook::scheduling {

struct GoType;
using GoTypePtr = std::shared_ptr<const GoType>;

struct GoField {
  std::string name;  // JSON key
  GoTypePtr type;
  bool omitempty = false;  // for re-encoding (pods/mutate affinity)
  bool pointer = false;    // *T: null decodes to nil, which is re-encoded as null / omitted
};

struct GoType {
  enum class Kind { String, Bool, Int32, Int64, Float64, Quantity, Struct, Slice, Map, Any };
  Kind kind = Kind::Any;
  std::string name;  // Go's reflect type string: "int32", "v1beta1.QueueSpec", "[]string"
  std::vector<GoField> fields;  // Struct
  GoTypePtr elem;               // Slice and Map values
};

inline GoTypePtr go_scalar(GoType::Kind kind, std::string name) {
  return std::make_shared<const GoType>(GoType{kind, std::move(name), {}, nullptr});
}
inline GoTypePtr go_string(std::string name = "string") {
  return go_scalar(GoType::Kind::String, std::move(name));
}
inline GoTypePtr go_struct(std::string name, std::vector<GoField> fields) {
  return std::make_shared<const GoType>(
      GoType{GoType::Kind::Struct, std::move(name), std::move(fields), nullptr});
}
inline GoTypePtr go_slice(GoTypePtr elem) {
  std::string name = "[]" + elem->name;
  return std::make_shared<const GoType>(
      GoType{GoType::Kind::Slice, std::move(name), {}, std::move(elem)});
}
// map[string]T, or a named map type such as v1.ResourceList.
inline GoTypePtr go_map(GoTypePtr elem, std::string name = "") {
  if (name.empty()) name = "map[string]" + elem->name;
  return std::make_shared<const GoType>(
      GoType{GoType::Kind::Map, std::move(name), {}, std::move(elem)});
}
inline GoTypePtr go_any() {
  return go_scalar(GoType::Kind::Any, "interface {}");
}
// v1.ResourceList: quantities, decoded by Quantity.UnmarshalJSON.
inline GoTypePtr go_resource_list() {
  return go_map(go_scalar(GoType::Kind::Quantity, "resource.Quantity"), "v1.ResourceList");
}

// metav1.ObjectMeta, the fields admission rules read.
inline GoTypePtr go_object_meta() {
  static const GoTypePtr type = [] {
    auto str = go_string();
    auto str_map = go_map(str);
    return go_struct("v1.ObjectMeta", {{"name", str},
                                       {"generateName", str},
                                       {"namespace", str},
                                       {"uid", go_string("types.UID")},
                                       {"resourceVersion", str},
                                       {"generation", go_scalar(GoType::Kind::Int64, "int64")},
                                       {"labels", str_map},
                                       {"annotations", str_map},
                                       {"finalizers", go_slice(str)}});
  }();
  return type;
}

namespace detail {

// The number as Go would quote it from the input ("1e100" rather than nlohmann's "1e+100").
inline std::string go_number_text(const nlohmann::json& j) {
  std::string text = j.dump();
  if (auto plus = text.find("e+"); plus != std::string::npos) text.erase(plus + 1, 1);
  return text;
}

class GoDecoder {
 public:
  // Returns false once an error aborts decoding (a custom unmarshaler failed).
  bool value(const nlohmann::json& j, const GoType& t) {
    if (j.is_null()) return true;
    using K = GoType::Kind;
    switch (t.kind) {
      case K::Any:
        return true;
      case K::String:
        if (!j.is_string()) mismatch(go_json_kind(j), t);
        return true;
      case K::Bool:
        if (!j.is_boolean()) mismatch(go_json_kind(j), t);
        return true;
      case K::Float64:
        if (!j.is_number()) mismatch(go_json_kind(j), t);
        return true;
      case K::Int32:
      case K::Int64:
        integer(j, t);
        return true;
      case K::Quantity:
        return quantity(j);
      case K::Struct:
        return object(j, t);
      case K::Slice:
        if (!j.is_array()) {
          mismatch(go_json_kind(j), t);
          return true;
        }
        for (std::size_t i = 0; i < j.size(); ++i) {
          display_.push_back("[" + std::to_string(i) + "]");
          const bool ok = value(j[i], *t.elem);
          display_.pop_back();
          if (!ok) return false;
        }
        return true;
      case K::Map:
        if (!j.is_object()) {
          mismatch(go_json_kind(j), t);
          return true;
        }
        for (const auto& [key, v] : j.items()) {
          display_.push_back("[" + key + "]");
          const bool ok = value(v, *t.elem);
          display_.pop_back();
          if (!ok) return false;
        }
        return true;
    }
    return true;
  }

  std::string result() const { return aborted_.empty() ? saved_ : aborted_; }

 private:
  bool object(const nlohmann::json& j, const GoType& t) {
    if (!j.is_object()) {
      mismatch(go_json_kind(j), t);
      return true;
    }
    const std::string outer = struct_name_;
    for (const auto& field : t.fields) {
      auto it = j.find(field.name);
      if (it == j.end()) continue;
      struct_name_ = short_name(t.name);
      fields_.push_back(field.name);
      display_.push_back((display_.empty() ? "" : ".") + field.name);
      const bool ok = value(*it, *field.type);
      display_.pop_back();
      fields_.pop_back();
      struct_name_ = outer;
      if (!ok) return false;
    }
    return true;
  }

  void integer(const nlohmann::json& j, const GoType& t) {
    if (!j.is_number()) {
      mismatch(go_json_kind(j), t);
      return;
    }
    // nlohmann's is_number_integer() is also true for unsigned numbers: test those first.
    bool fits = false;
    if (j.is_number_unsigned()) {
      const auto v = j.get<std::uint64_t>();
      fits = v <= (t.kind == GoType::Kind::Int64 ? std::uint64_t{INT64_MAX} : INT32_MAX);
    } else if (j.is_number_integer()) {
      const auto v = j.get<std::int64_t>();
      fits = t.kind == GoType::Kind::Int64 || (v >= INT32_MIN && v <= INT32_MAX);
    }
    if (!fits) mismatch("number " + go_number_text(j), t);
  }

  bool quantity(const nlohmann::json& j) {
    auto q = api::quantity_from_json(j);
    if (q.ok()) return true;
    // Go returns ParseQuantity's error alone; we also name the field.
    std::string path;
    for (const auto& segment : display_) path += segment;
    aborted_ = path + ": " + q.error();
    return false;
  }

  void mismatch(const std::string& what, const GoType& t) {
    if (!saved_.empty()) return;
    if (fields_.empty()) {
      saved_ = "json: cannot unmarshal " + what + " into Go value of type " + t.name;
      return;
    }
    std::string path;
    for (const auto& f : fields_) path += (path.empty() ? "" : ".") + f;
    saved_ = "json: cannot unmarshal " + what + " into Go struct field " + struct_name_ + "." +
             path + " of type " + t.name;
  }

  static std::string short_name(const std::string& name) {
    const auto dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(dot + 1);
  }

  std::string saved_;    // the first type mismatch: Go keeps decoding and reports it at the end
  std::string aborted_;  // an unmarshaler error: Go stops at once and reports it
  std::string struct_name_;
  std::vector<std::string> fields_;
  std::vector<std::string> display_;  // "spec.capability[cpu]" for quantity errors
};

}  // namespace detail

// "" when `object` decodes into `type` as Volcano's decoder would; otherwise the error message.
// A null object is the zero value (DELETE requests carry none).
inline std::string go_decode_error(const nlohmann::json& object, const GoType& type) {
  detail::GoDecoder decoder;
  decoder.value(object, type);
  return decoder.result();
}

// schema.Decode*'s resource check: "expect resource to be {group version resource}", or "".
inline std::string expect_resource_error(const GroupVersionResource& got,
                                         const GroupVersionResource& want) {
  if (got == want) return {};
  return "expect resource to be {" + want.group + " " + want.version + " " + want.resource + "}";
}

// The resource check, then the decode of request.object: "" when both pass, else the message.
inline std::string check_and_decode(const AdmissionRequest& request,
                                    const GroupVersionResource& want, const GoType& type) {
  if (auto e = expect_resource_error(request.resource, want); !e.empty()) return e;
  return go_decode_error(request.object, type);
}

// ---- Safe readers: a missing key, a null or a value of another type reads as the zero value.

inline const nlohmann::json* go_find(const nlohmann::json& j,
                                     std::initializer_list<std::string_view> path) {
  const nlohmann::json* cur = &j;
  for (auto key : path) {
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(key);
    if (it == cur->end()) return nullptr;
    cur = &*it;
  }
  return cur->is_null() ? nullptr : cur;
}

inline std::string go_get_string(const nlohmann::json& j,
                                 std::initializer_list<std::string_view> path) {
  const auto* v = go_find(j, path);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

inline std::int64_t go_get_int(const nlohmann::json& j,
                               std::initializer_list<std::string_view> path) {
  const auto* v = go_find(j, path);
  if (!v) return 0;
  if (v->is_number_unsigned()) {
    const auto u = v->get<std::uint64_t>();
    return u <= std::uint64_t{INT64_MAX} ? static_cast<std::int64_t>(u) : 0;
  }
  return v->is_number_integer() ? v->get<std::int64_t>() : 0;
}

// A map[string]string; entries that are not strings are skipped.
inline std::map<std::string, std::string> go_get_string_map(
    const nlohmann::json& j, std::initializer_list<std::string_view> path) {
  std::map<std::string, std::string> out;
  const auto* v = go_find(j, path);
  if (!v || !v->is_object()) return out;
  for (const auto& [key, value] : v->items()) {
    if (value.is_string()) out.emplace(key, value.get<std::string>());
  }
  return out;
}

// The value under path if it is an array, else nullptr.
inline const nlohmann::json* go_get_array(const nlohmann::json& j,
                                          std::initializer_list<std::string_view> path) {
  const auto* v = go_find(j, path);
  return v && v->is_array() ? v : nullptr;
}

}  // namespace vc::webhook::scheduling
