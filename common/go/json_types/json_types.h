#pragma once
// Go struct types described as data, and the check Go's encoding/json makes when it unmarshals a
// JSON value into them: the first value it would refuse, with Go's message, e.g.
//   json: cannot unmarshal string into Go struct field TaskSpec.spec.tasks.replicas of type int32
// (the innermost struct's name, then the JSON keys of the struct fields leading there).
//
// Volcano unmarshals every admission object into its Go types (spec webhook.md §2.0): field names
// are case-sensitive, unknown fields are ignored, null leaves the zero value, and a type mismatch
// denies the request. The admission endpoints run check_go_types first, so what they read
// afterwards has the expected JSON type.
//
// "Closed" structs (Volcano's own types) list every field; "open" structs (Kubernetes types such
// as PodSpec) list the fields we check or compare, and the rest is kept as opaque JSON. The
// pointer and omitempty flags matter to the callers that compare or re-encode values
// (apimachinery's semantic equality, Go's json.Marshal); the check itself ignores them.
//
// A module of its own (vc_go_types) rather than part of common/go (vc_go): quantities and times
// are parsed by common/api, which itself links vc_go.
//
// Threads: a GoTypes and the types it owns are built once and immutable afterwards; every
// function is pure.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace vc::go {

enum class GoKind {
  String,
  Bool,
  Int32,
  Int64,
  Int,  // Go int (64-bit)
  Float64,
  Quantity,  // resource.Quantity (a custom unmarshaller)
  Duration,  // metav1.Duration: a Go duration string
  Time,      // metav1.Time: an RFC 3339 string
  Struct,
  Slice,
  Map,  // map[string]<elem>
  Any,  // opaque JSON (not checked)
};

struct GoType;

struct GoField {
  std::string json_name;
  const GoType* type = nullptr;
  bool pointer = false;    // *T: absent or null (nil) differs from a present zero value
  bool omitempty = false;  // `json:",omitempty"`, for re-encoding
};

struct GoType {
  GoKind kind = GoKind::Any;
  std::string type_name;         // as Go prints the type: "int32", "[]v1alpha1.TaskSpec"
  std::string struct_name;       // Struct only: Go's Type.Name(), e.g. "TaskSpec"
  const GoType* elem = nullptr;  // Slice and Map
  std::vector<GoField> fields;   // Struct
  bool open = false;             // Struct: fields not listed are kept as opaque JSON

  const GoField* field(std::string_view json_name) const;
};

// Builds and owns a table of types that refer to each other by pointer; the addresses stay valid
// as long as the GoTypes lives (a type table is usually a function-local static).
class GoTypes {
 public:
  GoTypes() = default;
  GoTypes(const GoTypes&) = delete;
  GoTypes& operator=(const GoTypes&) = delete;

  // A scalar (or Any) type under Go's name for it: scalar(GoKind::String, "v1.Protocol").
  const GoType* scalar(GoKind kind, std::string type_name);
  const GoType* slice(const GoType* elem);  // named "[]<elem>"
  // map[string]<elem>, or a named map type such as v1.ResourceList.
  const GoType* map(const GoType* elem, std::string type_name = "");
  // A struct under its qualified name ("v1alpha1.TaskSpec"; Go's Type.Name() is the part after
  // the last dot), with its fields.
  const GoType* structure(std::string type_name, std::vector<GoField> fields, bool open = false);

 private:
  GoType* add(GoKind kind, std::string type_name);

  std::deque<GoType> types_;  // a deque: growing it never moves the types already in it
};

struct CheckOptions {
  // Name the value of a quantity that fails to parse in front of the error:
  //   spec.capability[cpu]: quantities must match the regular expression ...
  // (struct fields joined with ".", slice indices and map keys in brackets). Go returns the bare
  // error; the queue, podgroup, hypernode and pod endpoints name the field (docs/compat.md).
  bool name_quantity_field = false;
};

// The error Go would return when unmarshalling `value` into `type`, or nullopt. Objects are
// walked in the order their members iterate (by key: nlohmann::json sorts them; Go goes by
// document order, docs/compat.md). A type mismatch is remembered and the walk goes on, as Go's
// decoder does; an error of a custom unmarshaller (Quantity, Duration, Time) stops it and wins.
std::optional<std::string> check_go_types(const nlohmann::json& value, const GoType& type,
                                          CheckOptions options = {});

// How Go's decoder names the JSON value `value` is in an UnmarshalTypeError: "string", "number",
// "bool", "array", "object" or "null".
const char* json_kind(const nlohmann::json& value);

// Go's text of a JSON number: its literal as a client writes it ("1e100" where nlohmann writes
// "1e+100").
std::string json_number_text(const nlohmann::json& number);

// The JSON encoding/json writes for the zero value of a plain scalar kind (String "", Bool false,
// the integers and Float64 0); null for the other kinds, whose zero value depends on the caller
// (a nil pointer, slice or map, an empty struct, a custom marshaller).
nlohmann::json scalar_zero(GoKind kind);

// Whether Go decodes `value` into the scalar kind (String, Bool, Int32, Int64, Int, Float64)
// without error. Inline: the check calls it for most members of every admission object.
inline bool scalar_fits(const nlohmann::json& value, GoKind kind) {
  switch (kind) {
    case GoKind::String:
      return value.is_string();
    case GoKind::Bool:
      return value.is_boolean();
    case GoKind::Float64:
      return value.is_number();
    case GoKind::Int32:
    case GoKind::Int64:
    case GoKind::Int: {
      // nlohmann's is_number_integer() is also true for unsigned numbers: those go first.
      constexpr std::int64_t kMin32 = std::numeric_limits<std::int32_t>::min();
      constexpr std::int64_t kMax32 = std::numeric_limits<std::int32_t>::max();
      const bool is32 = kind == GoKind::Int32;
      if (value.is_number_unsigned()) {
        const auto n = value.get<std::uint64_t>();
        return n <=
               static_cast<std::uint64_t>(is32 ? kMax32 : std::numeric_limits<std::int64_t>::max());
      }
      if (!value.is_number_integer()) return false;  // a fraction or an exponent: Go refuses it
      const auto n = value.get<std::int64_t>();
      return !is32 || (n >= kMin32 && n <= kMax32);
    }
    default:
      return true;  // not a scalar kind
  }
}

// What Go's UnmarshalTypeError names when `value` does not fit the scalar kind — "string", or
// "number 1.5" for a number an integer kind refuses — or nullopt when it fits.
std::optional<std::string> scalar_mismatch(const nlohmann::json& value, GoKind kind);

// UnmarshalTypeError's message: "json: cannot unmarshal <what> into Go value of type <T>" at the
// top level (empty field_path), else "... into Go struct field <struct>.<field_path> of type <T>".
std::string unmarshal_type_error(std::string_view what, const GoType& type,
                                 std::string_view struct_name, std::string_view field_path);

// The deepest nesting level of a JSON value (a scalar or an empty container is 1), computed
// without recursion.
std::size_t json_depth(const nlohmann::json& value);

// Go's encoding/json refuses input nested deeper than this.
inline constexpr std::size_t kMaxJsonDepth = 10000;

}  // namespace vc::go
