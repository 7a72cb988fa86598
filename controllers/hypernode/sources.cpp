#include "controllers/hypernode/sources.h"

#include <algorithm>

#include "controllers/hypernode/desired.h"

namespace vc::controllers::hypernode {

ConfigMapRef config_map_ref(const char* release_name, const char* pod_namespace) {
  const auto or_default = [](const char* value, const char* fallback) {
    return std::string(value != nullptr && *value != '\0' ? value : fallback);
  };
  return {.namespace_ = or_default(pod_namespace, kDefaultNamespace),
          .name = config_map_name(or_default(release_name, kDefaultReleaseName))};
}

api::Expected<NetworkTopologyConfig> config_of(const kube::cache::Object* config_map) {
  if (config_map == nullptr) return NetworkTopologyConfig{};
  const auto* object = dynamic_cast<const kube::cache::JsonObject*>(config_map);
  const nlohmann::json* text = nullptr;
  if (object != nullptr) {
    if (auto data = object->json.find("data"); data != object->json.end() && data->is_object()) {
      if (auto it = data->find(kConfigKey); it != data->end()) text = &*it;
    }
  }
  if (text == nullptr) {
    return api::Unexpected{std::string("config key not found in ConfigMap: ") + kConfigKey};
  }
  if (!text->is_string()) {
    return api::Unexpected{std::string("data.") + kConfigKey + ": not a string"};
  }
  return parse_discovery_config(text->get_ref<const std::string&>());
}

SourceChanges source_changes(const std::vector<std::string>& running,
                             const NetworkTopologyConfig& config) {
  SourceChanges out;
  for (std::string& source : config.enabled_sources()) {
    if (std::find(out.start.begin(), out.start.end(), source) == out.start.end()) {
      out.start.push_back(std::move(source));
    }
  }
  for (const std::string& source : running) {
    if (std::find(out.start.begin(), out.start.end(), source) == out.start.end()) {
      out.stop.push_back(source);
    }
  }
  return out;
}

std::map<std::string, std::string> tier_label_values(const std::vector<TopologyType>& types,
                                                     const kube::cache::Object& node) {
  std::map<std::string, std::string> out;
  for (const TopologyType& type : types) {
    for (const std::string& key : type.tier_labels) {
      if (const std::string* value = node.label(key)) out[key] = *value;
    }
  }
  return out;
}

bool label_round_needed(const volcano::HyperNode* before, const volcano::HyperNode& after) {
  const std::string* owner = after.label(kSourceLabel);
  if (owner == nullptr || *owner != source::kLabel) return false;
  return before == nullptr || before->spec != after.spec || before->labels != after.labels;
}

}  // namespace vc::controllers::hypernode
