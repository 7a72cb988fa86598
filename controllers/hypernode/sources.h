#pragma once
// The decisions of the hyperNode-controller's shell that need no I/O
// (spec controller-manager.md §5.5.1, §5.5.3): where its ConfigMap is, what the ConfigMap says,
// which discovery sources to stop and start when it changes, and which node changes start a label
// discovery round, and which HyperNode changes do.
//
// Threads: pure functions.

#include <map>
#include <string>
#include <vector>

#include "common/api/expected.h"
#include "common/kube/cache/object.h"
#include "common/volcano/hyper_node.h"
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

// Whether a HyperNode added (before null) or updated starts a label round: it is the label
// source's and was added or its spec or labels changed (status, nodeCount's, does not). Volcano
// does not start one; we do because a round plans from the cache, which can lack what the last
// round created or hold the copy from before its patch: a round then leaves a HyperNode it no
// longer wants, or one patched away from what it wants again, with nothing left to trigger the
// round that would fix it. The round after this event sees our write; one with nothing to do
// writes nothing.
bool label_round_needed(const volcano::HyperNode* before, const volcano::HyperNode& after);

}  // namespace vc::controllers::hypernode
