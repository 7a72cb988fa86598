#include "webhook/admission/jobs/go_types.h"

#include <cstdint>
#include <limits>
#include <utility>

#include "common/api/quantity.h"
#include "common/api/time.h"
#include "common/go/duration.h"
#include "common/go/strconv.h"
#include "webhook/admission/field_error.h"

namespace vc::webhook::jobs {

const GoField* GoType::field(std::string_view json_name) const {
  for (const auto& f : fields) {
    if (f.json_name == json_name) return &f;
  }
  return nullptr;
}

namespace {

bool integer_fits(const json& v, std::int64_t lo, std::int64_t hi) {
  if (v.is_number_integer() && !v.is_number_unsigned()) {
    const auto n = v.get<std::int64_t>();
    return n >= lo && n <= hi;
  }
  if (v.is_number_unsigned()) {
    return v.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi);
  }
  return false;
}

// Walks a value against a type, remembering the first type mismatch and stopping at the first
// error of a custom unmarshaller, as Go's decoder does.
class Checker {
  static inline const std::string kNoStruct;

 public:
  std::optional<std::string> run(const json& value, const GoType& type) {
    visit(value, type);
    if (fatal_) return fatal_;
    return saved_;
  }

 private:
  void mismatch(std::string what, const GoType& type) {
    if (saved_) return;
    if (struct_name_->empty() && path_.empty()) {
      saved_ = "json: cannot unmarshal " + what + " into Go value of type " + type.type_name;
      return;
    }
    std::string joined;
    for (std::string_view p : path_) {
      if (!joined.empty()) joined += '.';
      joined += p;
    }
    saved_ = "json: cannot unmarshal " + what + " into Go struct field " + *struct_name_ + "." +
             joined + " of type " + type.type_name;
  }

  void visit(const json& v, const GoType& type) {
    if (fatal_ || v.is_null()) return;  // null leaves Go's zero value in place
    switch (type.kind) {
      case GoKind::Any:
        return;
      case GoKind::String:
        if (!v.is_string()) mismatch(go_json_kind(v), type);
        return;
      case GoKind::Bool:
        if (!v.is_boolean()) mismatch(go_json_kind(v), type);
        return;
      case GoKind::Int32:
        check_int(v, type, std::numeric_limits<std::int32_t>::min(),
                  std::numeric_limits<std::int32_t>::max());
        return;
      case GoKind::Int64:
      case GoKind::Int:
        check_int(v, type, std::numeric_limits<std::int64_t>::min(),
                  std::numeric_limits<std::int64_t>::max());
        return;
      case GoKind::Quantity:
        check_quantity(v);
        return;
      case GoKind::Duration:
        if (!v.is_string()) {
          // metav1.Duration unmarshals into a Go string first.
          fatal_ = std::string("json: cannot unmarshal ") + go_json_kind(v) +
                   " into Go value of type string";
        } else if (auto d = go::parse_duration(v.get_ref<const std::string&>()); !d) {
          fatal_ = d.error();
        }
        return;
      case GoKind::Time:
        if (!v.is_string()) {
          fatal_ = std::string("json: cannot unmarshal ") + go_json_kind(v) +
                   " into Go value of type string";
        } else if (!api::parse_time(v.get_ref<const std::string&>())) {
          fatal_ = "parsing time " + go::quote(v.get_ref<const std::string&>()) +
                   " as \"2006-01-02T15:04:05Z07:00\": cannot parse";
        }
        return;
      case GoKind::Slice:
        if (!v.is_array()) {
          mismatch(go_json_kind(v), type);
          return;
        }
        for (const auto& e : v) {
          if (fatal_) return;
          visit(e, *type.elem);
        }
        return;
      case GoKind::Map:
        if (!v.is_object()) {
          mismatch(go_json_kind(v), type);
          return;
        }
        for (const auto& [_, e] : v.get_ref<const json::object_t&>()) {
          if (fatal_) return;
          visit(e, *type.elem);
        }
        return;
      case GoKind::Struct:
        visit_struct(v, type);
        return;
    }
  }

  void check_int(const json& v, const GoType& type, std::int64_t lo, std::int64_t hi) {
    if (!v.is_number()) {
      mismatch(go_json_kind(v), type);
    } else if (v.is_number_float() || !integer_fits(v, lo, hi)) {
      mismatch("number " + v.dump(), type);
    }
  }

  void check_quantity(const json& v) {
    if (v.is_string() || v.is_number()) {
      auto q = api::quantity_from_json(v);
      if (!q) fatal_ = q.error();
      return;
    }
    // Go hands the raw text ("true", "{...}") to ParseQuantity, which rejects it.
    fatal_ = std::string(api::kQuantityFormatError);
  }

  void visit_struct(const json& v, const GoType& type) {
    if (!v.is_object()) {
      mismatch(go_json_kind(v), type);
      return;
    }
    // The members themselves, not items(): its proxy builds strings for every step.
    for (const auto& [key, child] : v.get_ref<const json::object_t&>()) {
      if (fatal_) return;
      const GoField* f = type.field(key);
      if (f == nullptr) continue;  // unknown fields are ignored
      const std::string* saved_struct = struct_name_;
      struct_name_ = &type.struct_name;
      path_.push_back(key);
      visit(child, *f->type);
      path_.pop_back();
      struct_name_ = saved_struct;
    }
  }

  // The walk's position, for messages: the innermost struct's name and the JSON keys leading
  // here. Both point into the type table and the document, which outlive the walk.
  const std::string* struct_name_ = &kNoStruct;
  std::vector<std::string_view> path_;
  std::optional<std::string> saved_;
  std::optional<std::string> fatal_;
};

}  // namespace

std::optional<std::string> check_go_types(const json& value, const GoType& type) {
  return Checker().run(value, type);
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

}  // namespace vc::webhook::jobs
