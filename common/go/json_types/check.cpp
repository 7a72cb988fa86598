// check_go_types: one walk of the document against the type, as Go's decoder makes it.

#include <cstdint>
#include <utility>

#include "common/api/quantity.h"
#include "common/api/time.h"
#include "common/go/duration.h"
#include "common/go/json_types/json_types.h"
#include "common/go/strconv.h"

namespace vc::go {
namespace {

using nlohmann::json;

// Walks a value against a type, remembering the first type mismatch and stopping at the first
// error of a custom unmarshaller, as Go's decoder does. It runs over every admission object, so
// nothing is allocated per member: the path holds views of the document's keys and pointers into
// the type table, and messages are written only for the error reported.
class Checker {
 public:
  explicit Checker(CheckOptions options) : options_(options) {}

  std::optional<std::string> run(const json& value, const GoType& type) {
    visit(value, type);
    return fatal_ ? std::move(fatal_) : std::move(saved_);
  }

 private:
  // One step from the root to the value being checked: a struct field (in_struct set), a map
  // key (text set) or a slice index. Three words: the walk makes one per member.
  struct Step {
    const char* text;         // Field: the JSON name; Key: the map key; Index: nullptr
    std::size_t size;         // the text's length, or the index
    const GoType* in_struct;  // Field: the struct it belongs to

    static Step field(std::string_view name, const GoType* in) {
      return {name.data(), name.size(), in};
    }
    static Step key(std::string_view k) { return {k.data(), k.size(), nullptr}; }
    static Step index(std::size_t i) { return {nullptr, i, nullptr}; }
    std::string_view name() const { return {text, size}; }
  };

  void visit(const json& v, const GoType& type) {
    if (v.is_null()) return;  // null leaves Go's zero value in place
    switch (type.kind) {
      case GoKind::Any:
        return;
      case GoKind::String:
      case GoKind::Bool:
      case GoKind::Int32:
      case GoKind::Int64:
      case GoKind::Int:
      case GoKind::Float64:
        if (!scalar_fits(v, type.kind)) mismatch(*scalar_mismatch(v, type.kind), type);
        return;
      case GoKind::Quantity:
        check_quantity(v);
        return;
      case GoKind::Duration:
        if (!v.is_string()) {
          // metav1.Duration unmarshals into a Go string first.
          fatal_ = not_a_string(v);
        } else if (auto d = parse_duration(v.get_ref<const std::string&>()); !d) {
          fatal_ = d.error();
        }
        return;
      case GoKind::Time:
        if (!v.is_string()) {
          fatal_ = not_a_string(v);
        } else if (!api::parse_time(v.get_ref<const std::string&>())) {
          fatal_ = "parsing time " + quote(v.get_ref<const std::string&>()) +
                   " as \"2006-01-02T15:04:05Z07:00\": cannot parse";
        }
        return;
      case GoKind::Slice:
        visit_slice(v, type);
        return;
      case GoKind::Map:
        visit_map(v, type);
        return;
      case GoKind::Struct:
        visit_struct(v, type);
        return;
    }
  }

  // A string, bool, number or opaque value: its check can only find a type mismatch, which names
  // struct fields alone. Elements of such types go without index and key steps and without
  // looking for a fatal error (a quantity's, whose message may show them, or a time's).
  static bool is_plain(const GoType& type) {
    return type.kind != GoKind::Quantity && type.kind != GoKind::Duration &&
           type.kind != GoKind::Time && type.kind != GoKind::Struct && type.kind != GoKind::Slice &&
           type.kind != GoKind::Map;
  }

  void visit_slice(const json& v, const GoType& type) {
    if (!v.is_array()) {
      mismatch(json_kind(v), type);
      return;
    }
    const auto& items = v.get_ref<const json::array_t&>();
    if (is_plain(*type.elem)) {
      for (const auto& item : items) visit(item, *type.elem);
      return;
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
      path_.push_back(Step::index(i));
      visit(items[i], *type.elem);
      path_.pop_back();
      if (fatal_) return;
    }
  }

  void visit_map(const json& v, const GoType& type) {
    if (!v.is_object()) {
      mismatch(json_kind(v), type);
      return;
    }
    // The members themselves, not items(): its proxy builds strings for every step.
    const auto& members = v.get_ref<const json::object_t&>();
    if (is_plain(*type.elem)) {
      for (const auto& [_, child] : members) visit(child, *type.elem);
      return;
    }
    for (const auto& [key, child] : members) {
      path_.push_back(Step::key(key));
      visit(child, *type.elem);
      path_.pop_back();
      if (fatal_) return;
    }
  }

  void visit_struct(const json& v, const GoType& type) {
    if (!v.is_object()) {
      mismatch(json_kind(v), type);
      return;
    }
    for (const auto& [key, child] : v.get_ref<const json::object_t&>()) {
      const GoField* f = type.field(key);
      if (f == nullptr) continue;  // unknown fields are ignored
      path_.push_back(Step::field(key, &type));
      visit(child, *f->type);
      path_.pop_back();
      if (fatal_) return;
    }
  }

  void check_quantity(const json& v) {
    std::string error;
    if (v.is_string() || v.is_number()) {
      auto q = api::quantity_from_json(v);
      if (q) return;
      error = std::move(q).error();
    } else {
      // Go hands anything else ("true", "{...}") to ParseQuantity as raw text, which rejects it.
      error = api::kQuantityFormatError;
    }
    if (options_.name_quantity_field && !path_.empty()) error = display_path() + ": " + error;
    fatal_ = std::move(error);
  }

  static std::string not_a_string(const json& v) {
    return std::string("json: cannot unmarshal ") + json_kind(v) + " into Go value of type string";
  }

  void mismatch(std::string_view what, const GoType& type) {
    if (saved_) return;
    // Go names the innermost struct and the struct fields leading to the value.
    std::string_view struct_name;
    std::string fields;
    for (const Step& s : path_) {
      if (s.in_struct == nullptr) continue;
      if (!fields.empty()) fields += '.';
      fields += s.name();
      struct_name = s.in_struct->struct_name;
    }
    saved_ = unmarshal_type_error(what, type, struct_name, fields);
  }

  // "spec.capability[cpu]", "spec.tasks[0].template".
  std::string display_path() const {
    std::string out;
    for (const Step& s : path_) {
      if (s.in_struct != nullptr) {
        if (!out.empty()) out += '.';
        out += s.name();
      } else if (s.text != nullptr) {
        out += '[';
        out += s.name();
        out += ']';
      } else {
        out += '[' + std::to_string(s.size) + ']';
      }
    }
    return out;
  }

  const CheckOptions options_;
  std::vector<Step> path_;            // views of the document and pointers into the type table
  std::optional<std::string> saved_;  // the first type mismatch: reported if nothing aborts
  std::optional<std::string> fatal_;  // an unmarshaller's error: ends the walk
};

}  // namespace

std::optional<std::string> check_go_types(const json& value, const GoType& type,
                                          CheckOptions options) {
  return Checker(options).run(value, type);
}

}  // namespace vc::go
