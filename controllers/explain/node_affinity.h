#pragma once
// A pod's required node affinity (spec.affinity.nodeAffinity.
// requiredDuringSchedulingIgnoredDuringExecution), as the scheduler's node-affinity predicate
// reads it: the node must match one of nodeSelectorTerms; a term matches when all its
// matchExpressions (on labels) and matchFields (on metadata.name) hold; a term with neither
// matches no node. Operators In, NotIn, Exists, DoesNotExist, Gt and Lt (integers).
//
// Threads: pure functions.

#include <string>

#include <nlohmann/json.hpp>

namespace vc::controllers::explain {

// Whether the pod has a required node affinity with at least one term.
bool has_required_node_affinity(const nlohmann::json& pod);

// Whether node satisfies the pod's required node affinity (true when the pod has none).
bool node_affinity_matches(const nlohmann::json& pod, const nlohmann::json& node);

// The terms in label-selector words, e.g. "zone in (a,b), gpu" or "disk=ssd | metadata.name=n1";
// "" when the pod has none.
std::string describe_required_node_affinity(const nlohmann::json& pod);

}  // namespace vc::controllers::explain
