#pragma once
// Lenient reads of raw Kubernetes JSON for the diagnosis: a missing field, or one of another
// type, reads as "not set" (null, "", the fallback), never as an error. The objects come from
// any Volcano cluster; a diagnosis that stops on an odd field helps nobody.
//
// Threads: pure functions.

#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace vc::controllers::explain {

using Path = std::initializer_list<std::string_view>;

// The value at path, or a null value when a step is missing or not an object.
const nlohmann::json& at(const nlohmann::json& j, Path path);
// The array at path, or an empty array.
const nlohmann::json& array_at(const nlohmann::json& j, Path path);
// The string at path, or "".
std::string str(const nlohmann::json& j, Path path);
// The string at path, or fallback when it is empty or missing.
std::string str_or(const nlohmann::json& j, Path path, std::string fallback);
// The integer at path, or fallback.
long long integer(const nlohmann::json& j, Path path, long long fallback);

// When an Event last happened: lastTimestamp, else eventTime, else firstTimestamp, else its
// creationTimestamp (RFC 3339 text, which sorts by time).
std::string event_time(const nlohmann::json& event);
// metadata.deletionTimestamp is set.
bool pod_deleted(const nlohmann::json& pod);

}  // namespace vc::controllers::explain
