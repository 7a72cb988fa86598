#pragma once
// The metadata every typed Volcano object carries: what an informer cache keys and selects on
// (kube::cache::Object: namespace, name, uid, resourceVersion, labels) plus the annotations and
// timestamps the controllers read. Decoded by decode_object_meta with the rules of json_read.h.
//
// Threads: plain values.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/time.h"
#include "common/kube/cache/object.h"
#include "common/volcano/json_read.h"

namespace vc::volcano {

struct ObjectMeta : kube::cache::Object {
  std::vector<std::pair<std::string, std::string>> annotations;  // all, sorted by key
  std::optional<api::TimePoint> creation_timestamp;
  std::optional<api::TimePoint> deletion_timestamp;

  const std::string* annotation(std::string_view key) const;
};

// Reads object.metadata into out (the members above). Throws DecodeError naming the field.
void decode_object_meta(const nlohmann::json& object, const FieldPath& root, ObjectMeta& out);

}  // namespace vc::volcano
