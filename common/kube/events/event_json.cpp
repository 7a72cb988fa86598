#include "common/kube/events/event_json.h"

#include "common/api/time.h"

#include <fmt/format.h>

namespace vc::kube::events {

using nlohmann::json;

const char* to_string(EventType type) {
  return type == EventType::Warning ? "Warning" : "Normal";
}

ObjectReference reference_to(const json& object) {
  auto str = [](const json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  ObjectReference ref;
  ref.kind = str(object, "kind");
  ref.api_version = str(object, "apiVersion");
  const auto meta = object.find("metadata");
  if (meta != object.end() && meta->is_object()) {
    ref.namespace_ = str(*meta, "namespace");
    ref.name = str(*meta, "name");
    ref.uid = str(*meta, "uid");
    ref.resource_version = str(*meta, "resourceVersion");
  }
  return ref;
}

std::string event_name(std::string_view involved_name, WallTime t) {
  const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch());
  return fmt::format("{}.{:x}", involved_name, static_cast<std::uint64_t>(nanos.count()));
}

std::string event_namespace(const ObjectReference& object) {
  return object.namespace_.empty() ? "default" : object.namespace_;
}

json make_event(const Event& e, const EventSource& source, std::string_view name,
                std::int32_t count, WallTime first_timestamp) {
  json involved = json::object();
  auto put = [](json& j, const char* key, const std::string& value) {
    if (!value.empty()) j[key] = value;
  };
  put(involved, "kind", e.object.kind);
  put(involved, "namespace", e.object.namespace_);
  put(involved, "name", e.object.name);
  put(involved, "uid", e.object.uid);
  put(involved, "apiVersion", e.object.api_version);
  put(involved, "resourceVersion", e.object.resource_version);
  put(involved, "fieldPath", e.object.field_path);

  json src = {{"component", source.component}};
  put(src, "host", source.host);

  json event = {
      {"apiVersion", "v1"},
      {"kind", "Event"},
      {"metadata", {{"name", std::string(name)}, {"namespace", event_namespace(e.object)}}},
      {"involvedObject", std::move(involved)},
      {"reason", e.reason},
      {"message", e.message},
      {"type", to_string(e.type)},
      {"source", std::move(src)},
      {"firstTimestamp", api::format_rfc3339(first_timestamp)},
      {"lastTimestamp", api::format_rfc3339(e.time)},
      {"count", count},
      {"reportingComponent", source.component},
      {"reportingInstance", source.host},
  };
  return event;
}

json make_repeat_patch(const Event& e, std::int32_t count) {
  return {{"count", count}, {"lastTimestamp", api::format_rfc3339(e.time)}, {"message", e.message}};
}

}  // namespace vc::kube::events
