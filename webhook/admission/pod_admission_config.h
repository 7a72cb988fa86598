#pragma once
// The pod admission configuration of --admission-conf (spec webhook.md §2.7): resource groups
// that pods/mutate matches pods against to add node selectors, affinity, tolerations and a
// scheduler name.

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/api/expected.h"

namespace vc::webhook {

struct ResourceGroup {
  std::string resource_group;              // resourceGroup
  std::string object_key;                  // object.key: "namespace", "annotation" or ""
  std::vector<std::string> object_values;  // object.value
  std::string scheduler_name;              // schedulerName
  nlohmann::json tolerations = nlohmann::json::array();  // core/v1 Toleration objects
  std::map<std::string, std::string> labels;             // labels
  std::string affinity;                                  // JSON text of a core/v1 Affinity
};

struct PodAdmissionConfig {
  std::vector<ResourceGroup> resource_groups;

  // Parses the YAML file content; the error names the field that is wrong.
  static api::Expected<PodAdmissionConfig> parse(const std::string& yaml);
};

}  // namespace vc::webhook
