#pragma once
// status.nodeCount of a HyperNode (spec controller-manager.md §5.5.5): the number of distinct
// names its members select, whatever their type. exactMatch adds its name; labelMatch adds the
// nodes whose labels match; regexMatch adds the nodes whose names a Go regular expression matches
// anywhere (common/go/regexp_match.h). A pattern Go refuses makes the member select nothing, as
// in Volcano; the rare pattern Go accepts but our RE2 cannot compile leaves the HyperNode without
// a count here, and its status is left alone (docs/compat.md).
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
// convert to a selector, select nothing. Nullopt for a regexMatch RE2 cannot compile although Go
// accepts it.
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
