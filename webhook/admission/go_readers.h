#pragma once
// Safe readers for admission objects: a missing key, a null or a value of another type reads as
// Go's zero value, so nothing here throws, whatever the JSON. Meant for objects that passed
// check_go_types (request_checks.h), where "another type" cannot happen for the fields described,
// and for cached objects, which nobody checked.
//
// Threads: pure functions.

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace vc::webhook {

// The value under path, or nullptr when a step is missing or not an object, or the value is null.
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

}  // namespace vc::webhook
