#include "common/volcano/object_meta.h"

#include <algorithm>

namespace vc::volcano {

const std::string* ObjectMeta::annotation(std::string_view key) const {
  auto it = std::lower_bound(annotations.begin(), annotations.end(), key,
                             [](const auto& a, std::string_view k) { return a.first < k; });
  if (it == annotations.end() || it->first != key) return nullptr;
  return &it->second;
}

void decode_object_meta(const nlohmann::json& object, const FieldPath& root, ObjectMeta& out) {
  const nlohmann::json* meta = read::object_at(object, "metadata", root);
  if (meta == nullptr) return;
  const FieldPath at = root.key("metadata");
  out.namespace_ = read::string_at(*meta, "namespace", at);
  out.name = read::string_at(*meta, "name", at);
  out.uid = read::string_at(*meta, "uid", at);
  out.resource_version = read::string_at(*meta, "resourceVersion", at);
  // std::map iterates in key order, so both vectors come out sorted as their readers expect.
  for (auto& [k, v] : read::string_map_at(*meta, "labels", at)) out.labels.emplace_back(k, v);
  for (auto& [k, v] : read::string_map_at(*meta, "annotations", at)) {
    out.annotations.emplace_back(k, std::move(v));
  }
  out.creation_timestamp = read::time_at(*meta, "creationTimestamp", at);
  out.deletion_timestamp = read::time_at(*meta, "deletionTimestamp", at);
}

}  // namespace vc::volcano
