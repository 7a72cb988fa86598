#pragma once
// ResourceList: resource name -> Quantity, as in core/v1 ResourceList ({"cpu": "500m",
// "memory": "1Gi", "nvidia.com/gpu": "1"}), with the arithmetic the controllers and the
// webhook need: sums over tasks, replicas, and "fits within" checks against queue capacities.
//
// A std::map, so iteration and JSON output are sorted by name, and nlohmann converts it to and
// from a JSON object of quantity strings directly (json j = list; j.get<ResourceList>()).
// The arithmetic is exact and saturates like Quantity (see quantity.h).
//
// Threads: plain values and pure functions; safe to call from any thread on distinct or const
// data.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"
#include "common/api/quantity.h"

namespace vc::api {

using ResourceList = std::map<std::string, Quantity>;

// How less_equal treats a resource that one side does not list.
enum class MissingDimension {
  Zero,       // absent means none of it
  Unlimited,  // absent means no limit (as Volcano's "Infinity" default)
};

// a + b per resource; a resource missing on one side counts as zero.
ResourceList add(const ResourceList& a, const ResourceList& b);
void add_to(ResourceList& into, const ResourceList& b);
// a - b per resource; results may be negative.
ResourceList sub(const ResourceList& a, const ResourceList& b);
// Every quantity times factor (e.g. a pod's requests times replicas).
ResourceList multiply(const ResourceList& a, std::int64_t factor);

// True when a <= b in every resource named on either side, reading a missing resource (on
// either side) as `missing` says. With Unlimited, an absent entry in b always fits and an
// absent entry in a fits only where b is absent too.
bool less_equal(const ResourceList& a, const ResourceList& b, MissingDimension missing);

inline bool is_empty(const ResourceList& list) {
  return list.empty();
}
// True when every listed quantity is zero (so also for an empty list).
bool is_zero(const ResourceList& list);

// "cpu: 1500m, memory: 1Gi" for logs and messages; "<none>" when empty.
std::string describe(const ResourceList& list);

// Decodes a JSON object of quantities (null is empty). Errors name the entry as a field path
// below `path`, e.g. "spec.minResources[cpu]: quantities must match ...".
Expected<ResourceList> resource_list_from_json(const nlohmann::json& j, std::string_view path = "");

}  // namespace vc::api
