#include "common/kube/cache/object.h"

#include <algorithm>

namespace vc::kube::cache {

namespace {

// A string member of a JSON object, or "" when absent or null.
std::string string_field(const nlohmann::json& obj, const char* name) {
  auto it = obj.find(name);
  if (it == obj.end() || it->is_null()) return {};
  return it->get<std::string>();
}

}  // namespace

std::string Object::key() const {
  return object_key(namespace_, name);
}

const std::string* Object::label(std::string_view key) const {
  auto it = std::lower_bound(labels.begin(), labels.end(), key,
                             [](const auto& label, std::string_view k) { return label.first < k; });
  if (it == labels.end() || it->first != key) return nullptr;
  return &it->second;
}

std::string object_key(std::string_view ns, std::string_view name) {
  std::string key;
  if (ns.empty()) {
    key = name;
    return key;
  }
  key.reserve(ns.size() + 1 + name.size());
  key.append(ns).append("/").append(name);
  return key;
}

std::pair<std::string_view, std::string_view> split_key(std::string_view key) {
  const auto slash = key.find('/');
  if (slash == std::string_view::npos) return {{}, key};
  return {key.substr(0, slash), key.substr(slash + 1)};
}

void read_metadata(const nlohmann::json& object, Object& out) {
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return;
  out.namespace_ = string_field(*meta, "namespace");
  out.name = string_field(*meta, "name");
  out.uid = string_field(*meta, "uid");
  out.resource_version = string_field(*meta, "resourceVersion");
  out.labels.clear();
  if (auto labels = meta->find("labels"); labels != meta->end() && labels->is_object()) {
    out.labels.reserve(labels->size());
    // nlohmann::json objects iterate in key order, so the vector comes out sorted.
    for (const auto& [k, v] : labels->items()) out.labels.emplace_back(k, v.get<std::string>());
  }
}

ObjectPtr json_transform(nlohmann::json&& object) {
  auto out = std::make_shared<JsonObject>();
  if (auto meta = object.find("metadata"); meta != object.end() && meta->is_object()) {
    meta->erase("managedFields");
  }
  read_metadata(object, *out);
  out->json = std::move(object);
  return out;
}

}  // namespace vc::kube::cache
