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
  // Entries come in key order, so both vectors are sorted as their readers expect.
  const auto pairs_at = [&](std::string_view name, auto& list) {
    read::each_entry_at(
        *meta, name, at, [&](std::string_view k, const nlohmann::json& v, const FieldPath& vp) {
          list.emplace_back(std::string(k), v.is_null() ? std::string() : read::string(v, vp));
        });
  };
  pairs_at("labels", out.labels);
  pairs_at("annotations", out.annotations);
  out.creation_timestamp = read::time_at(*meta, "creationTimestamp", at);
  out.deletion_timestamp = read::time_at(*meta, "deletionTimestamp", at);
}

}  // namespace vc::volcano
