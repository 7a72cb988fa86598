#pragma once
// Strict readers for the fields of a decoded Job or JobStatus. Every reader takes the path of
// the object it reads from ("spec.tasks[1]") and throws std::invalid_argument naming the full
// field path ("spec.tasks[1].replicas: expected an integer, got string") when the JSON type or
// value is wrong: that is what Go's typed client would refuse to decode. A missing field or a
// JSON null reads as the default, as in Go.
//
// Internal to the model module. Threads: pure functions, callable from any thread.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/time.h"

namespace vc::controllers::job::fields {

using nlohmann::json;

// "a.b" (or "b" when the parent path is empty) and "a[3]".
std::string child(const std::string& path, std::string_view key);
std::string item(const std::string& path, std::size_t index);

[[noreturn]] void fail(const std::string& path, const std::string& what);

// The member, or null when absent or JSON null. `object` must be an object.
const json* find(const json& object, std::string_view key);

// Checks that v is an object (or an array); returns it.
const json& require_object(const json& v, const std::string& path);
const json& require_array(const json& v, const std::string& path);

// The member as an object or array, or null when absent.
const json* object_at(const json& object, std::string_view key, const std::string& path);
const json* array_at(const json& object, std::string_view key, const std::string& path);

std::string string_value(const json& v, const std::string& path);
std::int32_t int32_value(const json& v, const std::string& path);

std::string string_at(const json& object, std::string_view key, const std::string& path);
std::int32_t int32_at(const json& object, std::string_view key, const std::string& path);
std::optional<std::int32_t> opt_int32_at(const json& object, std::string_view key,
                                         const std::string& path);
// metav1.Time: RFC 3339, or absent.
std::optional<api::TimePoint> time_at(const json& object, std::string_view key,
                                      const std::string& path);
std::vector<std::string> strings_at(const json& object, std::string_view key,
                                    const std::string& path);
std::map<std::string, std::string> string_map_at(const json& object, std::string_view key,
                                                 const std::string& path);

}  // namespace vc::controllers::job::fields
