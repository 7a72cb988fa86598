#pragma once
// The data of one core/v1 Event as a caller reports it, before aggregation.

#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

namespace vc::kube::events {

using WallTime = std::chrono::system_clock::time_point;

enum class EventType { Normal, Warning };
const char* to_string(EventType type);  // "Normal" / "Warning"

// core/v1 ObjectReference: which object the event is about.
struct ObjectReference {
  std::string kind;        // "Job"
  std::string namespace_;  // "" for cluster-scoped objects (e.g. Queue)
  std::string name;
  std::string uid;
  std::string api_version;  // "batch.volcano.sh/v1alpha1"
  std::string resource_version;
  std::string field_path;  // rarely used, e.g. "spec.containers{main}"
};

// Reads apiVersion, kind and metadata.{namespace,name,uid,resourceVersion} of an API object.
ObjectReference reference_to(const nlohmann::json& object);

struct Event {
  ObjectReference object;
  EventType type = EventType::Normal;
  std::string reason;   // UpperCamelCase, e.g. "PodGroupPending"
  std::string message;  // for people
  WallTime time;        // when it happened (not when it is sent)
};

}  // namespace vc::kube::events
