#pragma once
// The Volcano HyperNode (topology.volcano.sh/v1alpha1, cluster-scoped), typed: one node of the
// network topology tree, whose members are nodes or lower-tier HyperNodes picked by exact name,
// regular expression or label selector (spec webhook.md §2.11). Decoded with the rules of
// json_read.h; a selector's pattern and labels are kept as written (the webhook validates them).
//
// encode_hyper_node_status writes HyperNodeStatus as Go's encoding/json does: `conditions`
// (metav1.Condition, meta_types.h) omitted when empty, `nodeCount` omitted when 0.
//
// Threads: plain values and pure functions; a cached HyperNode is immutable.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/volcano/json_read.h"
#include "common/volcano/meta_types.h"
#include "common/volcano/object_meta.h"

namespace vc::volcano {

inline constexpr const char* kHyperNodeApiVersion = "topology.volcano.sh/v1alpha1";
inline constexpr const char* kHyperNodeKind = "HyperNode";

// spec.members[].type values.
namespace member_type {
inline constexpr const char* kNode = "Node";
inline constexpr const char* kHyperNode = "HyperNode";
}  // namespace member_type

// spec.members[].selector: one of the three is set (the webhook's rule, not the decoder's).
struct MemberSelector {
  std::optional<std::string> exact_match;  // exactMatch.name
  std::optional<std::string> regex_match;  // regexMatch.pattern
  std::optional<LabelSelector> label_match;
  friend bool operator==(const MemberSelector&, const MemberSelector&) = default;
};

struct HyperNodeMember {
  std::string type;
  MemberSelector selector;
  friend bool operator==(const HyperNodeMember&, const HyperNodeMember&) = default;
};

struct HyperNodeSpec {
  std::int64_t tier = 0;  // Go's int
  std::string tier_name;
  std::vector<HyperNodeMember> members;
  // Go tells a nil slice (members absent or null) from an empty one: the webhook's message
  // prints the first as null and the second as [].
  bool members_null = true;
  friend bool operator==(const HyperNodeSpec&, const HyperNodeSpec&) = default;
};

struct HyperNodeStatus {
  std::vector<Condition> conditions;
  std::int64_t node_count = 0;
  friend bool operator==(const HyperNodeStatus&, const HyperNodeStatus&) = default;
};

struct HyperNode : ObjectMeta {
  HyperNodeSpec spec;
  HyperNodeStatus status;
};

// Decodes a whole HyperNode (metadata, spec, status) into out. Throws DecodeError.
void decode_hyper_node(const nlohmann::json& hyper_node, HyperNode& out,
                       const FieldPath& root = FieldPath());

nlohmann::json encode_hyper_node_status(const HyperNodeStatus& status);

}  // namespace vc::volcano
