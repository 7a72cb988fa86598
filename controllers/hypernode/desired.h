#pragma once
// A HyperNode as a discovery source wants it (spec controller-manager.md §5.5.2): the name, the
// labels the source sets (always volcano.sh/network-topology-source) and the spec. Both sources
// produce these; the reconcile plan compares them with the HyperNodes the source owns, and
// encode_hyper_node writes the object a create sends.
//
// Threads: plain values and pure functions.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/volcano/hyper_node.h"

namespace vc::controllers::hypernode {

// The ownership marker: a source owns exactly the HyperNodes carrying this label with its name.
inline constexpr const char* kSourceLabel = "volcano.sh/network-topology-source";

namespace source {
inline constexpr const char* kLabel = "label";
inline constexpr const char* kUfm = "ufm";
}  // namespace source

struct DesiredHyperNode {
  std::string name{};
  std::map<std::string, std::string> labels{};
  std::int64_t tier = 0;
  std::string tier_name{};  // empty: not set
  std::vector<volcano::HyperNodeMember> members{};
  friend bool operator==(const DesiredHyperNode&, const DesiredHyperNode&) = default;
};

// One member per name, sorted by name, each {type, selector: {exactMatch: {name}}}.
std::vector<volcano::HyperNodeMember> exact_members(std::vector<std::string> names,
                                                    const std::string& type);

// The whole object a create sends: apiVersion, kind, metadata {name, labels}, spec {tier,
// tierName, members}, with Go's omitempty rules (tier 0 and an empty tierName are left out).
nlohmann::json encode_hyper_node(const DesiredHyperNode& hyper_node);

// metav1.LabelSelector as Go marshals it: matchLabels and matchExpressions omitted when empty.
nlohmann::json encode_label_selector(const volcano::LabelSelector& selector);

// spec.members as Go marshals them: {type, selector: {exactMatch|regexMatch|labelMatch}}.
nlohmann::json encode_members(const std::vector<volcano::HyperNodeMember>& members);

}  // namespace vc::controllers::hypernode
