#pragma once
// The decisions of the hyperNode-controller's shell that need no I/O
// (spec controller-manager.md §5.5.1, §5.5.3): where its ConfigMap is, what the ConfigMap says,
// which discovery sources to stop and start when it changes, and which node changes start a label
// discovery round.
//
// Threads: pure functions.

#include <map>
#include <string>
#include <vector>

#include "common/api/expected.h"
#include "common/kube/cache/object.h"
#include "controllers/hypernode/discovery_config.h"

namespace vc::controllers::hypernode {

struct ConfigMapRef {
  std::string namespace_{};
  std::string name{};
  friend bool operator==(const ConfigMapRef&, const ConfigMapRef&) = default;
};

// From the values of HELM_RELEASE_NAME and KUBE_POD_NAMESPACE (null or empty: the defaults).
ConfigMapRef config_map_ref(const char* release_name, const char* pod_namespace);

// The configuration a cached ConfigMap holds (a kube::cache::JsonObject): none (null) is an
// empty configuration; without the key it is `config key not found in ConfigMap:
// volcano-controller.conf`; a document that does not parse is `failed to parse config: ...`.
api::Expected<NetworkTopologyConfig> config_of(const kube::cache::Object* config_map);

// What a configuration change does to the running sources: stop those not enabled any more,
// then stop and start again every enabled source, once each, in document order.
struct SourceChanges {
  std::vector<std::string> stop{};
  std::vector<std::string> start{};
  friend bool operator==(const SourceChanges&, const SourceChanges&) = default;
};
SourceChanges source_changes(const std::vector<std::string>& running,
                             const NetworkTopologyConfig& config);

// The node's values of every tier label of every type it carries (Volcano's
// getNodeNetworkTopologyLabels): a node event starts a round when this is not empty (add,
// delete) or when it changed (update).
std::map<std::string, std::string> tier_label_values(const std::vector<TopologyType>& types,
                                                     const kube::cache::Object& node);

}  // namespace vc::controllers::hypernode
