#pragma once
// The JSON the recorder sends: core/v1 Event objects and the merge patch that counts a repeat.

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/kube/events/event.h"

namespace vc::kube::events {

// Who reports: source.component / reportingComponent and source.host / reportingInstance.
struct EventSource {
  std::string component;  // "vc-controller-manager"
  std::string host;       // optional
};

// "<involved name>.<unix nanoseconds in lower-case hex>", as client-go names events.
std::string event_name(std::string_view involved_name, WallTime t);

// Events about cluster-scoped objects live in "default", as with client-go.
std::string event_namespace(const ObjectReference& object);

// A complete core/v1 Event named name with count and first/last timestamps.
nlohmann::json make_event(const Event& e, const EventSource& source, std::string_view name,
                          std::int32_t count, WallTime first_timestamp);

// The merge patch recording one more occurrence: count, lastTimestamp and message.
nlohmann::json make_repeat_patch(const Event& e, std::int32_t count);

}  // namespace vc::kube::events
