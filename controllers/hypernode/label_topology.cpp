#include "controllers/hypernode/label_topology.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <utility>

namespace vc::controllers::hypernode {
namespace {

// One HyperNode being built in a round.
struct Building {
  int tier = 0;
  std::string key{};
  std::string value{};
  std::set<std::string> members{};
};

using Pair = std::pair<std::string, std::string>;  // (label key, value)

// FNV-1a, 64 bits: small, stable across builds and platforms, good enough to spread names.
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = 14695981039346656037ull) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

class Round {
 public:
  explicit Round(const LabelSnapshot& s) {
    for (const volcano::HyperNode* h : s.hyper_nodes) {
      taken_.insert(h->name);
      const std::string* owner = h->label(kSourceLabel);
      if (owner == nullptr || *owner != source::kLabel) continue;
      for (const auto& [k, v] : h->labels) {
        if (k != kSourceLabel) owned_by_pair_[{k, v}].push_back(h->name);
      }
    }
    for (auto& [pair, names] : owned_by_pair_) std::sort(names.begin(), names.end());
  }

  api::Status add_node(const kube::cache::Object& node, const TopologyType& type) {
    std::string member = node.name;
    for (std::size_t i = 0; i < type.tier_labels.size(); ++i) {
      const std::string& key = type.tier_labels[i];
      const std::string* value = node.label(key);
      if (value == nullptr) break;  // no HyperNode at this tier, nor above it
      const int tier = static_cast<int>(i) + 1;
      const Pair pair{key, *value};
      auto named = name_of_pair_.find(pair);
      if (named == name_of_pair_.end()) {
        auto name = name_for(type.name, tier, key, *value);
        if (!name) return api::Unexpected{name.error()};
        named = name_of_pair_.emplace(pair, *name).first;
      }
      Building& b = building_[named->second];
      if (b.tier == 0) b = Building{.tier = tier, .key = key, .value = *value};
      b.members.insert(member);
      member = named->second;
    }
    return api::Unit{};
  }

  std::vector<DesiredHyperNode> result() const {
    std::vector<DesiredHyperNode> out;
    out.reserve(building_.size());
    for (const auto& [name, b] : building_) {
      const char* type =
          b.tier == 1 ? volcano::member_type::kNode : volcano::member_type::kHyperNode;
      out.push_back({.name = name,
                     .labels = {{kSourceLabel, source::kLabel}, {b.key, b.value}},
                     .tier = b.tier,
                     .tier_name = b.key,
                     .members = exact_members({b.members.begin(), b.members.end()}, type)});
    }
    return out;
  }

 private:
  // An existing HyperNode of this source for the pair and the type's tier, else a free name.
  api::Expected<std::string> name_for(const std::string& type, int tier, const std::string& key,
                                      const std::string& value) {
    const std::string prefix = name_prefix(type, tier);
    if (auto it = owned_by_pair_.find({key, value}); it != owned_by_pair_.end()) {
      for (const std::string& name : it->second) {
        if (name.starts_with(prefix)) return name;
      }
    }
    for (int attempt = 0; attempt < kNameAttempts; ++attempt) {
      std::string name = candidate_name(type, tier, key, value, attempt);
      if (!taken_.contains(name) && !building_.contains(name)) return name;
    }
    return api::Unexpected{"unable to get unique hyperNodeName after " +
                           std::to_string(kNameAttempts) + " attempts"};
  }

  std::set<std::string> taken_;                             // every existing HyperNode's name
  std::map<Pair, std::vector<std::string>> owned_by_pair_;  // this source's, by label, sorted
  std::map<Pair, std::string> name_of_pair_;                // the round's names so far
  std::map<std::string, Building> building_;                // by name
};

}  // namespace

std::string clean_type_name(std::string_view type_name) {
  std::string out;
  out.reserve(type_name.size());
  for (unsigned char c : type_name) {
    if (c >= 'A' && c <= 'Z') {
      out.push_back(static_cast<char>(c - 'A' + 'a'));
    } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('-');
    }
  }
  return out;
}

std::string name_prefix(std::string_view type_name, int tier) {
  return "hypernode-" + clean_type_name(type_name) + "-tier" + std::to_string(tier);
}

std::string candidate_name(std::string_view type_name, int tier, std::string_view key,
                           std::string_view value, int attempt) {
  // Separators that cannot occur in a label key keep ("a", "bc") and ("ab", "c") apart.
  std::uint64_t h = fnv1a(type_name);
  h = fnv1a("\n" + std::to_string(tier) + "\n", h);
  h = fnv1a(key, h);
  h = fnv1a("=", h);
  h = fnv1a(value, h);
  h = fnv1a("\n" + std::to_string(attempt), h);
  std::string out = name_prefix(type_name, tier) + "-";
  for (std::size_t i = 0; i < kSuffixLength; ++i) {
    out.push_back(kSuffixAlphabet[h % kSuffixAlphabet.size()]);
    h /= kSuffixAlphabet.size();
  }
  return out;
}

api::Expected<std::vector<DesiredHyperNode>> label_hyper_nodes(const LabelSnapshot& snapshot) {
  std::vector<const kube::cache::Object*> nodes = snapshot.nodes;
  // Volcano walks the cache in its own order; name order makes the round reproducible.
  std::sort(nodes.begin(), nodes.end(),
            [](const auto* a, const auto* b) { return a->name < b->name; });
  Round round(snapshot);
  if (snapshot.types != nullptr) {
    for (const kube::cache::Object* node : nodes) {
      for (const TopologyType& type : *snapshot.types) {
        if (auto ok = round.add_node(*node, type); !ok) return api::Unexpected{ok.error()};
      }
    }
  }
  return round.result();
}

}  // namespace vc::controllers::hypernode
