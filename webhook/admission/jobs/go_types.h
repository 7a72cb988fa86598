#pragma once
// A small description of the Go struct types Volcano decodes admission objects into, and a
// checker that reports the first JSON value Go's encoding/json would refuse, with Go's message:
//   json: cannot unmarshal string into Go struct field TaskSpec.spec.tasks.replicas of type int32
//
// Volcano unmarshals request.object straight into its Go types (spec webhook.md §2.0): field names
// are case-sensitive, unknown fields are ignored, null leaves the zero value, and a type mismatch
// denies the request. The admit functions run check_go_types first, so everything they read
// afterwards has the expected JSON type; they still read defensively.
//
// "Closed" structs (Volcano's own types) list every field; "open" structs (Kubernetes core types
// such as PodSpec) list the fields we validate or compare, and the rest is kept as opaque JSON.
//
// Threads: GoType objects are immutable after construction; every function is pure.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace vc::webhook::jobs {

using nlohmann::json;

enum class GoKind {
  String,
  Bool,
  Int32,
  Int64,
  Int,       // Go int (64-bit)
  Quantity,  // resource.Quantity (custom unmarshaller)
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
  bool pointer = false;  // a pointer field: absent/null differs from a present zero value
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

// The first problem Go would report when unmarshalling `value` into `type`, or nullopt.
// Errors raised by custom unmarshallers (Quantity, Duration, Time) win over type mismatches,
// as in Go, where they abort decoding while type mismatches are only remembered.
std::optional<std::string> check_go_types(const json& value, const GoType& type);

// The deepest nesting level of a JSON value (a scalar is 1), computed without recursion.
std::size_t json_depth(const json& value);

// Go's encoding/json refuses input nested deeper than this.
inline constexpr std::size_t kMaxJsonDepth = 10000;

}  // namespace vc::webhook::jobs
