#pragma once
// Strict readers for decoding API objects (Volcano's, and the pods and PodGroups the controllers
// cache) into typed models. They follow Go's typed client: a missing member or JSON null reads
// as the zero value, unknown members are ignored, and a member of the wrong JSON type (or an
// integer out of range, a bad timestamp or duration) throws DecodeError naming the field:
// "spec.tasks[1].replicas: expected an integer, got string".
//
// The position is a FieldPath: a chain of nodes on the decoder's own stack, turned into text only
// when an error is reported, so a decode that succeeds builds no path strings.
//
// A FieldPath may carry a FieldTrace, which records every member a decoder looked up (present or
// not) in CRD path form ("spec.tasks[].replicas"), and the elements of every list and map it
// walked ("spec.tasks[]", "metadata.labels{}"). The model coverage test decodes a document
// shaped like a CRD schema with a trace and fails on any schema field the decoder never asked
// for: a field the model does not know cannot go unnoticed.
//
// Threads: pure functions; a FieldTrace belongs to one decode.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "common/api/resource_list.h"
#include "common/api/time.h"

namespace vc::volcano {

using nlohmann::json;

// A decoding error; what() is "<field path>: <problem>".
class DecodeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The members a decode looked up, for the coverage test.
struct FieldTrace {
  std::set<std::string> read;    // "spec.tasks[].replicas"; map values as "labels{}"
  std::set<std::string> opaque;  // members kept as JSON whole: "spec.tasks[].template"
};

class FieldPath {
 public:
  // The document root ("" in messages; "(root)" when the root itself is wrong).
  explicit FieldPath(FieldTrace* trace = nullptr) : trace_(trace) {}

  // Children. The key must outlive the child (it points into the document or a literal), and
  // the parent must outlive it too: keep each level in a named variable, never a chain of
  // temporaries such as `FieldPath p = at.key("a").key("b");` (its parent dies at the `;`).
  FieldPath key(std::string_view name) const { return {this, Kind::Key, name, 0}; }
  FieldPath index(std::size_t i) const { return {this, Kind::Index, {}, i}; }
  FieldPath map_value(std::string_view key) const { return {this, Kind::MapValue, key, 0}; }

  // "spec.tasks[1].replicas", "spec.plugins[ssh][0]"; "(root)" for the root.
  std::string text() const;
  // "spec.tasks[].replicas", "spec.plugins{}[]": the form of crd_schema.h.
  std::string schema_text() const;

  FieldTrace* trace() const { return trace_; }

  [[noreturn]] void fail(const std::string& problem) const;

 private:
  enum class Kind { Root, Key, Index, MapValue };
  FieldPath(const FieldPath* parent, Kind kind, std::string_view key, std::size_t index)
      : parent_(parent), kind_(kind), key_(key), index_(index), trace_(parent->trace_) {}
  void append(std::string& out, bool schema) const;

  const FieldPath* parent_ = nullptr;
  Kind kind_ = Kind::Root;
  std::string_view key_;
  std::size_t index_ = 0;
  FieldTrace* trace_ = nullptr;
};

// Runs decode() and turns a DecodeError into the error of an Expected.
template <class T, class Decode>
api::Expected<T> decode_or_error(Decode&& decode) {
  try {
    return decode();
  } catch (const DecodeError& e) {
    return api::Unexpected{std::string(e.what())};
  }
}

namespace read {

// The member `name` of `object` (which must be an object), or null when absent or JSON null.
// Records the lookup in the trace.
const json* find(const json& object, std::string_view name, const FieldPath& at);
// Records `at` in the trace, if there is one: for list elements and map values, which have no
// member name to look up.
void record(const FieldPath& at);

// Checks the value's JSON type; returns it.
const json& object(const json& v, const FieldPath& at);
const json& array(const json& v, const FieldPath& at);

std::string string(const json& v, const FieldPath& at);
bool boolean(const json& v, const FieldPath& at);
std::int32_t int32(const json& v, const FieldPath& at);
std::int64_t int64(const json& v, const FieldPath& at);
double float64(const json& v, const FieldPath& at);
api::TimePoint time(const json& v, const FieldPath& at);                // metav1.Time, RFC 3339
std::chrono::nanoseconds duration(const json& v, const FieldPath& at);  // metav1.Duration

// Members of `object` at `at` (the object's own path). Absent or null → the zero value.
// object_at returns null for an absent object, except in a traced decode, where it returns {} so
// that the decoder goes on to look up (and record) the fields the object would have.
const json* object_at(const json& object, std::string_view name, const FieldPath& at);
const json* array_at(const json& object, std::string_view name, const FieldPath& at);
std::string string_at(const json& object, std::string_view name, const FieldPath& at);
bool bool_at(const json& object, std::string_view name, const FieldPath& at);
std::optional<bool> opt_bool_at(const json& object, std::string_view name, const FieldPath& at);
std::int32_t int32_at(const json& object, std::string_view name, const FieldPath& at);
std::optional<std::int32_t> opt_int32_at(const json& object, std::string_view name,
                                         const FieldPath& at);
std::int64_t int64_at(const json& object, std::string_view name, const FieldPath& at);
std::optional<std::int64_t> opt_int64_at(const json& object, std::string_view name,
                                         const FieldPath& at);
std::optional<double> opt_float64_at(const json& object, std::string_view name,
                                     const FieldPath& at);
std::optional<api::TimePoint> time_at(const json& object, std::string_view name,
                                      const FieldPath& at);
std::optional<std::chrono::nanoseconds> duration_at(const json& object, std::string_view name,
                                                    const FieldPath& at);
// []string; a null element is "" (as Go decodes it).
std::vector<std::string> strings_at(const json& object, std::string_view name, const FieldPath& at);
// map[string]string; a null value is "".
std::map<std::string, std::string> string_map_at(const json& object, std::string_view name,
                                                 const FieldPath& at);
// v1.ResourceList (map[string]resource.Quantity); errors name the entry ("spec.capability[cpu]").
api::ResourceList resource_list_at(const json& object, std::string_view name, const FieldPath& at);
// A member kept as JSON whole (a pod template, a resource list read elsewhere): the member or
// null, recorded as opaque in the trace. No type check below it.
const json* opaque_at(const json& object, std::string_view name, const FieldPath& at);

// Calls read(element, element_path) for each element of the array member `name`; a null
// element reads as {} (Go's zero value of a struct).
template <class Fn>
void each_at(const json& object, std::string_view name, const FieldPath& at, Fn&& fn) {
  static const json kEmpty = json::object();
  const json* list = array_at(object, name, at);
  const FieldPath here = at.key(name);
  if (here.trace() != nullptr) record(here.index(0));
  if (list == nullptr) {
    // Nothing to read, but a traced decode still learns which fields an element has.
    if (here.trace() != nullptr) fn(kEmpty, here.index(0));
    return;
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    const FieldPath item = here.index(i);
    const json& e = (*list)[i];
    fn(e.is_null() ? kEmpty : read::object(e, item), item);
  }
}

// Calls read(key, value, value_path) for each entry of the object member `name`, in key order
// (a Go map has none; sorted is the stable choice). Null values are passed as they are.
template <class Fn>
void each_entry_at(const json& object, std::string_view name, const FieldPath& at, Fn&& fn) {
  static const json kNull;
  const json* map = object_at(object, name, at);
  const FieldPath here = at.key(name);
  if (here.trace() != nullptr) record(here.map_value("key"));
  if (map == nullptr || (map->empty() && here.trace() != nullptr)) {
    // A traced decode still learns which fields a value has.
    if (here.trace() != nullptr) fn(std::string_view("key"), kNull, here.map_value("key"));
    return;
  }
  for (const auto& [k, v] : map->get_ref<const json::object_t&>()) {
    fn(std::string_view(k), v, here.map_value(k));
  }
}

}  // namespace read
}  // namespace vc::volcano
