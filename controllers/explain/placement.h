#pragma once
// Whether a pod could ever be placed on the cluster's nodes, ignoring room: its nodeSelector and
// its required node affinity (node_affinity.h) must match a node, and that node's NoSchedule and
// NoExecute taints must all be tolerated (the scheduler's node-selector, node-affinity and taint
// predicates, which Volcano runs as Kubernetes does). Inter-pod affinity is not evaluated.
//
// Threads: pure function.

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vc::controllers::explain {

struct PlacementCheck {
  std::string selector;            // "k=v, k2=v2", or "" without a nodeSelector
  std::string affinity;            // the required node affinity's terms, or "" without one
  int selector_matches = 0;        // nodes that match both
  int tolerated = 0;               // of those, nodes whose taints the pod tolerates
  std::string untolerated_taint;   // one taint that kept a matching node out: "key=value:Effect"
  std::set<std::string> eligible;  // the nodes that pass both
};

PlacementCheck check_placement(const nlohmann::json& pod, const std::vector<nlohmann::json>& nodes);

// Whether one toleration of the pod tolerates the taint (Kubernetes' matching rules: an empty
// effect matches every effect, operator Exists ignores the value and with an empty key matches
// every taint, operator Equal (the default) needs the same key and value).
bool tolerates(const nlohmann::json& tolerations, const nlohmann::json& taint);

}  // namespace vc::controllers::explain
