// PodAdmissionConfig::parse: the --admission-conf file, read as Volcano reads it with
// gopkg.in/yaml.v2 (spec webhook.md §2.7):
//   - keys are case-sensitive and unknown keys are ignored; null leaves a field empty;
//   - scalars of any kind read as their text where a string is expected;
//   - tolerations use the lower-cased Go field names (key, operator, value, effect,
//     tolerationseconds), so "tolerationSeconds" is silently ignored, as in Volcano;
//   - an integer field takes yaml.v2's integer forms (0x.., 0o.., 0b.., "_" separators) and
//     truncates a float, but refuses quoted text.
// Errors name the field and its line: "resourceGroups[0].tolerations[1].tolerationseconds:
// cannot read "soon" as an int64 (line 7)".

#include "webhook/admission/pod_admission_config.h"

#include <optional>

#include <yaml-cpp/yaml.h>

#include "common/go/yaml_fields.h"

namespace vc::webhook {
namespace {

// Reads one document into the config; the first problem found is kept (error()).
class ConfigReader : public go::YamlFieldReader {
 public:
  void read(const YAML::Node& root, PodAdmissionConfig& config) {
    if (!map_or_null(root, "the admission configuration")) return;
    const YAML::Node groups = go::yaml_child(root, "resourceGroups");
    if (!sequence_or_null(groups, "resourceGroups")) return;
    for (std::size_t i = 0; i < groups.size() && error().empty(); ++i) {
      config.resource_groups.push_back(
          group(groups[i], "resourceGroups[" + std::to_string(i) + "]"));
    }
  }

 private:
  nlohmann::json toleration(const YAML::Node& n, const std::string& path) {
    nlohmann::json t = nlohmann::json::object();
    if (!map_or_null(n, path)) return t;
    for (const char* key : {"key", "operator", "value", "effect"}) {
      const std::string v = text(go::yaml_child(n, key), path + "." + key);
      if (!v.empty()) t[key] = v;  // omitempty, as the Go type marshals
    }
    if (auto seconds =
            int64_value(go::yaml_child(n, "tolerationseconds"), path + ".tolerationseconds")) {
      t["tolerationSeconds"] = *seconds;
    }
    return t;
  }

  ResourceGroup group(const YAML::Node& n, const std::string& path) {
    ResourceGroup g;
    if (!map_or_null(n, path)) return g;
    g.resource_group = text(go::yaml_child(n, "resourceGroup"), path + ".resourceGroup");
    const YAML::Node object = go::yaml_child(n, "object");
    if (map_or_null(object, path + ".object")) {
      g.object_key = text(go::yaml_child(object, "key"), path + ".object.key");
      const YAML::Node values = go::yaml_child(object, "value");
      if (sequence_or_null(values, path + ".object.value")) {
        for (std::size_t i = 0; i < values.size(); ++i) {
          g.object_values.push_back(
              text(values[i], path + ".object.value[" + std::to_string(i) + "]"));
        }
      }
    }
    g.scheduler_name = text(go::yaml_child(n, "schedulerName"), path + ".schedulerName");
    const YAML::Node tolerations = go::yaml_child(n, "tolerations");
    if (sequence_or_null(tolerations, path + ".tolerations")) {
      for (std::size_t i = 0; i < tolerations.size(); ++i) {
        g.tolerations.push_back(
            toleration(tolerations[i], path + ".tolerations[" + std::to_string(i) + "]"));
      }
    }
    const YAML::Node labels = go::yaml_child(n, "labels");
    if (map_or_null(labels, path + ".labels") && labels.IsMap()) {
      for (const auto& entry : labels) {
        const std::string key = text(entry.first, path + ".labels");
        g.labels[key] = text(entry.second, path + ".labels[" + key + "]");
      }
    }
    g.affinity = text(go::yaml_child(n, "affinity"), path + ".affinity");
    return g;
  }
};

}  // namespace

api::Expected<PodAdmissionConfig> PodAdmissionConfig::parse(const std::string& yaml) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    return api::Unexpected{std::string("the admission configuration is not valid YAML: ") +
                           e.what()};
  }
  PodAdmissionConfig config;
  ConfigReader reader;
  reader.read(root, config);
  if (!reader.error().empty()) return api::Unexpected{reader.error()};
  return config;
}

}  // namespace vc::webhook
