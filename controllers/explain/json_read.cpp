#include "controllers/explain/json_read.h"

namespace vc::controllers::explain {
namespace {

const nlohmann::json& null_value() {
  static const nlohmann::json value;
  return value;
}

const nlohmann::json& empty_array() {
  static const nlohmann::json value = nlohmann::json::array();
  return value;
}

}  // namespace

const nlohmann::json& at(const nlohmann::json& j, Path path) {
  const nlohmann::json* cur = &j;
  for (std::string_view step : path) {
    if (!cur->is_object()) return null_value();
    const auto it = cur->find(step);
    if (it == cur->end()) return null_value();
    cur = &*it;
  }
  return *cur;
}

const nlohmann::json& array_at(const nlohmann::json& j, Path path) {
  const nlohmann::json& v = at(j, path);
  return v.is_array() ? v : empty_array();
}

std::string str(const nlohmann::json& j, Path path) {
  const nlohmann::json& v = at(j, path);
  return v.is_string() ? v.get<std::string>() : std::string();
}

std::string str_or(const nlohmann::json& j, Path path, std::string fallback) {
  std::string s = str(j, path);
  return s.empty() ? fallback : s;
}

long long integer(const nlohmann::json& j, Path path, long long fallback) {
  const nlohmann::json& v = at(j, path);
  return v.is_number_integer() ? v.get<long long>() : fallback;
}

std::string event_time(const nlohmann::json& event) {
  for (std::string_view field : {"lastTimestamp", "eventTime", "firstTimestamp"}) {
    if (std::string t = str(event, {field}); !t.empty()) return t;
  }
  return str(event, {"metadata", "creationTimestamp"});
}

bool pod_deleted(const nlohmann::json& pod) {
  return !at(pod, {"metadata", "deletionTimestamp"}).is_null();
}

}  // namespace vc::controllers::explain
