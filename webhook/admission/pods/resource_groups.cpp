#include "webhook/admission/pods/resource_groups.h"

#include <algorithm>
#include <optional>

#include <yaml-cpp/yaml.h>

namespace vc::webhook::pods {
namespace {

// yaml.v2 Unmarshal into map[string]string: null is an empty map, scalars (keys and values)
// read as their text, null values as ""; anything else is an error (nullopt).
std::optional<std::map<std::string, std::string>> parse_string_map(const std::string& text) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception&) {
    return std::nullopt;  // not YAML: Volcano skips the entry
  }
  std::map<std::string, std::string> out;
  if (root.IsNull()) return out;
  if (!root.IsMap()) return std::nullopt;
  for (const auto& entry : root) {
    const YAML::Node& key = entry.first;
    const YAML::Node& value = entry.second;
    if (!(key.IsScalar() || key.IsNull()) || !(value.IsScalar() || value.IsNull())) {
      return std::nullopt;
    }
    out[key.IsNull() ? std::string() : key.Scalar()] =
        value.IsNull() ? std::string() : value.Scalar();
  }
  return out;
}

std::string annotation_or_empty(const std::map<std::string, std::string>& annotations,
                                const std::string& key) {
  auto it = annotations.find(key);
  return it == annotations.end() ? std::string() : it->second;
}

}  // namespace

std::map<std::string, std::string> group_annotations(const ResourceGroup& group) {
  std::map<std::string, std::string> merged;
  for (const auto& text : group.object_values) {
    auto parsed = parse_string_map(text);
    if (!parsed) continue;
    for (auto& [key, value] : *parsed) {
      auto it = merged.find(key);
      if (it == merged.end()) {
        merged.emplace(key, value);
      } else if (it->second.empty()) {
        it->second = value;  // mergo fills empty destination values
      }
    }
  }
  return merged;
}

bool pod_in_group(const ResourceGroup& group, const std::string& pod_namespace,
                  const std::map<std::string, std::string>& pod_annotations) {
  if (group.object_key == "namespace") {
    return std::find(group.object_values.begin(), group.object_values.end(), pod_namespace) !=
           group.object_values.end();
  }
  if (!group.object_key.empty() && group.object_key != "annotation") return false;
  for (const auto& [key, value] : group_annotations(group)) {
    if (annotation_or_empty(pod_annotations, key) == value) return true;
  }
  return group.object_key.empty() &&
         annotation_or_empty(pod_annotations, kResourceGroupAnnotation) == group.resource_group;
}

}  // namespace vc::webhook::pods
