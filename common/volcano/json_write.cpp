#include "common/volcano/json_write.h"

namespace vc::volcano::write {

using nlohmann::json;

void nonempty(json& out, const char* key, const std::string& v) {
  if (!v.empty()) out[key] = v;
}

void nonzero(json& out, const char* key, std::int64_t v) {
  if (v != 0) out[key] = v;
}

void strings(json& out, const char* key, const std::vector<std::string>& v) {
  if (!v.empty()) out[key] = v;
}

void time_if_set(json& out, const char* key, const std::optional<api::TimePoint>& t) {
  if (t) out[key] = api::format_rfc3339(*t);
}

json time_or_null(const std::optional<api::TimePoint>& t) {
  return t ? json(api::format_rfc3339(*t)) : json(nullptr);
}

}  // namespace vc::volcano::write
