#include "controllers/hypernode/node_count.h"

#include "common/api/label_selector.h"
#include "common/go/regexp_match.h"
#include "controllers/hypernode/desired.h"

namespace vc::controllers::hypernode {

std::optional<std::set<std::string>> member_names(
    const volcano::MemberSelector& selector, const std::vector<const kube::cache::Object*>& nodes) {
  std::set<std::string> out;
  if (selector.exact_match) {
    if (selector.exact_match->empty()) return out;
    out.insert(*selector.exact_match);
  }
  if (selector.regex_match) {
    const go::Regexp re = go::Regexp::compile(*selector.regex_match);
    if (re.status() == go::Regexp::Status::go_refuses) return std::set<std::string>{};
    if (re.status() == go::Regexp::Status::unsupported) return std::nullopt;
    for (const kube::cache::Object* node : nodes) {
      if (re.match_string(node->name)) out.insert(node->name);
    }
  }
  if (selector.label_match) {
    const volcano::LabelSelector& match = *selector.label_match;
    if (match.match_labels.empty() && match.match_expressions.empty()) return out;
    const auto converted = api::LabelSelector::from_json(encode_label_selector(match));
    if (!converted) return std::set<std::string>{};
    for (const kube::cache::Object* node : nodes) {
      const api::Labels labels(node->labels.begin(), node->labels.end());
      if (converted->matches(labels)) out.insert(node->name);
    }
  }
  return out;
}

std::optional<std::int64_t> count_nodes(const volcano::HyperNodeSpec& spec,
                                        const std::vector<const kube::cache::Object*>& nodes) {
  std::set<std::string> names;
  for (const volcano::HyperNodeMember& member : spec.members) {
    auto selected = member_names(member.selector, nodes);
    if (!selected) return std::nullopt;
    names.merge(*selected);
  }
  return static_cast<std::int64_t>(names.size());
}

std::optional<nlohmann::json> node_count_patch(const volcano::HyperNode& hyper_node,
                                               std::int64_t count) {
  if (hyper_node.status.node_count == count) return std::nullopt;
  return nlohmann::json{
      {"metadata", {{"resourceVersion", hyper_node.resource_version}}},
      {"status", {{"nodeCount", count == 0 ? nlohmann::json(nullptr) : nlohmann::json(count)}}}};
}

}  // namespace vc::controllers::hypernode
