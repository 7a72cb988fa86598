#include "controllers/job/model/json_fields.h"

#include <limits>
#include <stdexcept>

namespace vc::controllers::job::fields {

namespace {

std::string expected(const char* what, const json& got) {
  return std::string("expected ") + what + ", got " + got.type_name();
}

}  // namespace

std::string child(const std::string& path, std::string_view key) {
  if (path.empty()) return std::string(key);
  std::string out;
  out.reserve(path.size() + 1 + key.size());
  out.append(path).append(".").append(key);
  return out;
}

std::string item(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

void fail(const std::string& path, const std::string& what) {
  throw std::invalid_argument(path + ": " + what);
}

const json* find(const json& object, std::string_view key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

const json& require_object(const json& v, const std::string& path) {
  if (!v.is_object()) fail(path, expected("an object", v));
  return v;
}

const json& require_array(const json& v, const std::string& path) {
  if (!v.is_array()) fail(path, expected("an array", v));
  return v;
}

const json* object_at(const json& object, std::string_view key, const std::string& path) {
  const json* v = find(object, key);
  if (v != nullptr) require_object(*v, child(path, key));
  return v;
}

const json* array_at(const json& object, std::string_view key, const std::string& path) {
  const json* v = find(object, key);
  if (v != nullptr) require_array(*v, child(path, key));
  return v;
}

std::string string_value(const json& v, const std::string& path) {
  if (!v.is_string()) fail(path, expected("a string", v));
  return v.get<std::string>();
}

std::int32_t int32_value(const json& v, const std::string& path) {
  // Go's decoder refuses fractions ("3.5", also "3.0") and values outside int32.
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
      fail(path, "value " + v.dump() + " overflows int32");
    }
    return static_cast<std::int32_t>(u);
  }
  if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    if (i < std::numeric_limits<std::int32_t>::min() ||
        i > std::numeric_limits<std::int32_t>::max()) {
      fail(path, "value " + v.dump() + " overflows int32");
    }
    return static_cast<std::int32_t>(i);
  }
  fail(path, expected("an integer", v));
}

std::string string_at(const json& object, std::string_view key, const std::string& path) {
  const json* v = find(object, key);
  return v == nullptr ? std::string() : string_value(*v, child(path, key));
}

std::int32_t int32_at(const json& object, std::string_view key, const std::string& path) {
  const json* v = find(object, key);
  return v == nullptr ? 0 : int32_value(*v, child(path, key));
}

std::optional<std::int32_t> opt_int32_at(const json& object, std::string_view key,
                                         const std::string& path) {
  const json* v = find(object, key);
  if (v == nullptr) return std::nullopt;
  return int32_value(*v, child(path, key));
}

std::optional<api::TimePoint> time_at(const json& object, std::string_view key,
                                      const std::string& path) {
  const json* v = find(object, key);
  if (v == nullptr) return std::nullopt;
  const std::string field = child(path, key);
  const std::string text = string_value(*v, field);
  auto t = api::parse_time(text);
  if (!t) fail(field, "invalid RFC 3339 time \"" + text + "\"");
  return t;
}

std::vector<std::string> strings_at(const json& object, std::string_view key,
                                    const std::string& path) {
  std::vector<std::string> out;
  const json* list = array_at(object, key, path);
  if (list == nullptr) return out;
  const std::string field = child(path, key);
  out.reserve(list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    // Go decodes a null element of a []string as "".
    const json& e = (*list)[i];
    out.push_back(e.is_null() ? std::string() : string_value(e, item(field, i)));
  }
  return out;
}

std::map<std::string, std::string> string_map_at(const json& object, std::string_view key,
                                                 const std::string& path) {
  std::map<std::string, std::string> out;
  const json* map = object_at(object, key, path);
  if (map == nullptr) return out;
  const std::string field = child(path, key);
  for (const auto& [k, v] : map->items()) {
    // Go decodes a null map value as "".
    out.emplace(k, v.is_null() ? std::string() : string_value(v, child(field, k)));
  }
  return out;
}

}  // namespace vc::controllers::job::fields
