#include "common/volcano/json_read.h"

#include <limits>

#include "common/go/duration.h"

namespace vc::volcano {

void FieldPath::append(std::string& out, bool schema) const {
  if (parent_ != nullptr) parent_->append(out, schema);
  switch (kind_) {
    case Kind::Root:
      return;
    case Kind::Key:
      if (!out.empty()) out += '.';
      out += key_;
      return;
    case Kind::Index:
      if (schema) {
        out += "[]";
      } else {
        out += '[';
        out += std::to_string(index_);
        out += ']';
      }
      return;
    case Kind::MapValue:
      if (schema) {
        out += "{}";
      } else {
        out += '[';
        out += key_;
        out += ']';
      }
      return;
  }
}

std::string FieldPath::text() const {
  std::string out;
  append(out, false);
  return out.empty() ? "(root)" : out;
}

std::string FieldPath::schema_text() const {
  std::string out;
  append(out, true);
  return out;
}

void FieldPath::fail(const std::string& problem) const {
  throw DecodeError(text() + ": " + problem);
}

namespace read {
namespace {

[[noreturn]] void wrong_type(const char* want, const json& got, const FieldPath& at) {
  at.fail(std::string("expected ") + want + ", got " + got.type_name());
}

// Go's decoder refuses fractions ("3.5", also "3.0") and values outside the type.
std::int64_t integer(const json& v, const FieldPath& at, std::int64_t lo, std::int64_t hi,
                     const char* type) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(hi)) at.fail("value " + v.dump() + " overflows " + type);
    return static_cast<std::int64_t>(u);
  }
  if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    if (i < lo || i > hi) at.fail("value " + v.dump() + " overflows " + type);
    return i;
  }
  wrong_type("an integer", v, at);
}

}  // namespace

void record(const FieldPath& at) {
  if (FieldTrace* t = at.trace(); t != nullptr) t->read.insert(at.schema_text());
}

const json* find(const json& object, std::string_view name, const FieldPath& at) {
  // Checked here so that an untraced decode (all but the coverage test) builds no child path.
  if (at.trace() != nullptr) record(at.key(name));
  if (!object.is_object()) return nullptr;
  // The object's own map: nlohmann's find() goes through its generic iterator.
  const auto& members = object.get_ref<const json::object_t&>();
  auto it = members.find(name);
  if (it == members.end() || it->second.is_null()) return nullptr;
  return &it->second;
}

const json& object(const json& v, const FieldPath& at) {
  if (!v.is_object()) wrong_type("an object", v, at);
  return v;
}

const json& array(const json& v, const FieldPath& at) {
  if (!v.is_array()) wrong_type("an array", v, at);
  return v;
}

std::string string(const json& v, const FieldPath& at) {
  if (!v.is_string()) wrong_type("a string", v, at);
  return v.get<std::string>();
}

bool boolean(const json& v, const FieldPath& at) {
  if (!v.is_boolean()) wrong_type("a boolean", v, at);
  return v.get<bool>();
}

std::int32_t int32(const json& v, const FieldPath& at) {
  return static_cast<std::int32_t>(integer(v, at, std::numeric_limits<std::int32_t>::min(),
                                           std::numeric_limits<std::int32_t>::max(), "int32"));
}

std::int64_t int64(const json& v, const FieldPath& at) {
  return integer(v, at, std::numeric_limits<std::int64_t>::min(),
                 std::numeric_limits<std::int64_t>::max(), "int64");
}

double float64(const json& v, const FieldPath& at) {
  if (!v.is_number()) wrong_type("a number", v, at);
  return v.get<double>();
}

api::TimePoint time(const json& v, const FieldPath& at) {
  const std::string text = string(v, at);
  auto t = api::parse_time(text);
  if (!t) at.fail("invalid RFC 3339 time \"" + text + "\"");
  return *t;
}

std::chrono::nanoseconds duration(const json& v, const FieldPath& at) {
  auto d = go::parse_duration(string(v, at));
  if (!d) at.fail(d.error());
  return *d;
}

const json* object_at(const json& object, std::string_view name, const FieldPath& at) {
  static const json kEmpty = json::object();
  const json* v = find(object, name, at);
  if (v != nullptr) return &read::object(*v, at.key(name));
  return at.trace() != nullptr ? &kEmpty : nullptr;
}

const json* array_at(const json& object, std::string_view name, const FieldPath& at) {
  const json* v = find(object, name, at);
  if (v != nullptr) read::array(*v, at.key(name));
  return v;
}

std::string string_at(const json& object, std::string_view name, const FieldPath& at) {
  const json* v = find(object, name, at);
  return v == nullptr ? std::string() : string(*v, at.key(name));
}

bool bool_at(const json& object, std::string_view name, const FieldPath& at) {
  return opt_bool_at(object, name, at).value_or(false);
}

std::optional<bool> opt_bool_at(const json& object, std::string_view name, const FieldPath& at) {
  const json* v = find(object, name, at);
  if (v == nullptr) return std::nullopt;
  return boolean(*v, at.key(name));
}

std::int32_t int32_at(const json& object, std::string_view name, const FieldPath& at) {
  return opt_int32_at(object, name, at).value_or(0);
}

std::optional<std::int32_t> opt_int32_at(const json& object, std::string_view name,
                                         const FieldPath& at) {
  const json* v = find(object, name, at);
  if (v == nullptr) return std::nullopt;
  return int32(*v, at.key(name));
}

std::int64_t int64_at(const json& object, std::string_view name, const FieldPath& at) {
  return opt_int64_at(object, name, at).value_or(0);
}

std::optional<std::int64_t> opt_int64_at(const json& object, std::string_view name,
                                         const FieldPath& at) {
  const json* v = find(object, name, at);
  if (v == nullptr) return std::nullopt;
  return int64(*v, at.key(name));
}

std::optional<double> opt_float64_at(const json& object, std::string_view name,
                                     const FieldPath& at) {
  const json* v = find(object, name, at);
  if (v == nullptr) return std::nullopt;
  return float64(*v, at.key(name));
}

std::optional<api::TimePoint> time_at(const json& object, std::string_view name,
                                      const FieldPath& at) {
  const json* v = find(object, name, at);
  if (v == nullptr) return std::nullopt;
  return time(*v, at.key(name));
}

std::optional<std::chrono::nanoseconds> duration_at(const json& object, std::string_view name,
                                                    const FieldPath& at) {
  const json* v = find(object, name, at);
  if (v == nullptr) return std::nullopt;
  return duration(*v, at.key(name));
}

std::vector<std::string> strings_at(const json& object, std::string_view name,
                                    const FieldPath& at) {
  std::vector<std::string> out;
  const json* list = array_at(object, name, at);
  const FieldPath here = at.key(name);
  if (here.trace() != nullptr) record(here.index(0));
  if (list == nullptr) return out;
  out.reserve(list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& e = (*list)[i];
    out.push_back(e.is_null() ? std::string() : string(e, here.index(i)));
  }
  return out;
}

std::map<std::string, std::string> string_map_at(const json& object, std::string_view name,
                                                 const FieldPath& at) {
  std::map<std::string, std::string> out;
  each_entry_at(object, name, at, [&](std::string_view k, const json& v, const FieldPath& vp) {
    out.emplace(k, v.is_null() ? std::string() : string(v, vp));
  });
  return out;
}

api::ResourceList resource_list_at(const json& object, std::string_view name, const FieldPath& at) {
  const json* v = find(object, name, at);
  if (v == nullptr) {
    // The values are quantities: a traced decode records the map's value path.
    if (at.trace() != nullptr) record(at.key(name).map_value("key"));
    return {};
  }
  const FieldPath here = at.key(name);
  auto list = api::resource_list_from_json(read::object(*v, here), here.text());
  if (!list) throw DecodeError(list.error());
  return std::move(*list);
}

const json* opaque_at(const json& object, std::string_view name, const FieldPath& at) {
  const FieldPath here = at.key(name);
  if (FieldTrace* t = at.trace(); t != nullptr) t->opaque.insert(here.schema_text());
  return find(object, name, at);
}

}  // namespace read
}  // namespace vc::volcano
