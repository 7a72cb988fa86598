#pragma once
// status.nodeCount of a HyperNode (spec controller-manager.md §5.5.5): the number of distinct
// names its members select, whatever their type. exactMatch adds its name; labelMatch adds the
// nodes whose labels match; regexMatch adds the nodes whose names a Go regular expression matches
// anywhere. We have Go's regexp syntax check but not its matcher, so a HyperNode with a regexMatch
// member whose pattern Go accepts has no count here and its status is left alone
// (docs/compat.md); a pattern Go refuses adds nothing, as in Volcano.
//
// Threads: pure functions.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/kube/cache/object.h"
#include "common/volcano/hyper_node.h"

namespace vc::controllers::hypernode {

// The names one member selects among `nodes` (name and labels), as Volcano's GetMembers: an
// empty exactMatch name, a labelMatch with neither labels nor expressions, or one that does not
// convert to a selector, select nothing. Nullopt for a regexMatch with a pattern Go accepts.
std::optional<std::set<std::string>> member_names(
    const volcano::MemberSelector& selector, const std::vector<const kube::cache::Object*>& nodes);

// The count of the union over all members; nullopt when a member cannot be counted (above).
std::optional<std::int64_t> count_nodes(const volcano::HyperNodeSpec& spec,
                                        const std::vector<const kube::cache::Object*>& nodes);

// The merge patch of the status subresource that writes `count`, or nullopt when the HyperNode
// already shows it: {"metadata": {"resourceVersion"}, "status": {"nodeCount"}}, with null for 0
// (Go's omitempty leaves a zero count out of the object Volcano sends).
std::optional<nlohmann::json> node_count_patch(const volcano::HyperNode& hyper_node,
                                               std::int64_t count);

}  // namespace vc::controllers::hypernode
