#pragma once
// The label source's discovery round as a pure function (spec controller-manager.md §5.5.3):
// nodes grouped by their tier labels into HyperNodes, tier by tier, each tier's HyperNodes the
// members of the next. The result is what the round sends to reconciliation (reconcile_plan.h).
//
// Names: an existing HyperNode of this source labelled <key>=<value> whose name starts with
// hypernode-<type>-tier<t> keeps its name, as in Volcano. A new one gets
// hypernode-<type>-tier<t>-<5 characters>; Volcano draws the characters at random, we derive
// them from a hash of (type, tier, key, value), so that a round repeated before the cache shows
// the previous round's creates names the same HyperNodes again instead of making twins.
//
// Threads: a pure function over plain data.

#include <string>
#include <string_view>
#include <vector>

#include "common/api/expected.h"
#include "common/kube/cache/object.h"
#include "common/volcano/hyper_node.h"
#include "controllers/hypernode/desired.h"
#include "controllers/hypernode/discovery_config.h"

namespace vc::controllers::hypernode {

// Attempts at a free name before the round fails, as Volcano.
inline constexpr int kNameAttempts = 20;
// The characters of a generated suffix: apimachinery's rand.String alphabet (no vowels, so no
// words).
inline constexpr std::string_view kSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789";
inline constexpr std::size_t kSuffixLength = 5;

struct LabelSnapshot {
  const std::vector<TopologyType>* types = nullptr;  // in order; the first to reach a pair names it
  std::vector<const kube::cache::Object*> nodes{};   // name and labels; any order
  std::vector<const volcano::HyperNode*> hyper_nodes{};  // every HyperNode, whoever owns it
};

// The HyperNodes the label source wants, sorted by name; an error when no free name is found.
api::Expected<std::vector<DesiredHyperNode>> label_hyper_nodes(const LabelSnapshot& snapshot);

// A topology type's name as it appears in HyperNode names: letters lower-cased, digits, '.'
// and '-' kept, every other character '-'. (Volcano truncates a non-ASCII letter to one byte,
// which makes an invalid name; we write '-' for each byte of it.)
std::string clean_type_name(std::string_view type_name);

// The prefix of a type's HyperNodes at a tier: "hypernode-<clean type>-tier<tier>".
std::string name_prefix(std::string_view type_name, int tier);

// The attempt-th candidate name for a new HyperNode of (key, value): the prefix, "-", and five
// characters of kSuffixAlphabet chosen by a hash of the arguments.
std::string candidate_name(std::string_view type_name, int tier, std::string_view key,
                           std::string_view value, int attempt);

}  // namespace vc::controllers::hypernode
