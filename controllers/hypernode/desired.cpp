#include "controllers/hypernode/desired.h"

#include <algorithm>

namespace vc::controllers::hypernode {

using nlohmann::json;

json encode_label_selector(const volcano::LabelSelector& s) {
  json out = json::object();
  if (!s.match_labels.empty()) out["matchLabels"] = s.match_labels;
  if (!s.match_expressions.empty()) {
    json exprs = json::array();
    for (const auto& r : s.match_expressions) {
      json e = {{"key", r.key}, {"operator", r.operator_}};
      if (!r.values.empty()) e["values"] = r.values;
      exprs.push_back(std::move(e));
    }
    out["matchExpressions"] = std::move(exprs);
  }
  return out;
}

std::vector<volcano::HyperNodeMember> exact_members(std::vector<std::string> names,
                                                    const std::string& type) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::vector<volcano::HyperNodeMember> out;
  out.reserve(names.size());
  for (auto& name : names) {
    volcano::HyperNodeMember member;
    member.type = type;
    member.selector.exact_match = std::move(name);
    out.push_back(std::move(member));
  }
  return out;
}

json encode_members(const std::vector<volcano::HyperNodeMember>& members) {
  json out = json::array();
  for (const auto& m : members) {
    json selector = json::object();
    if (m.selector.exact_match) selector["exactMatch"] = {{"name", *m.selector.exact_match}};
    if (m.selector.regex_match) selector["regexMatch"] = {{"pattern", *m.selector.regex_match}};
    if (m.selector.label_match)
      selector["labelMatch"] = encode_label_selector(*m.selector.label_match);
    json member = json::object();
    if (!m.type.empty()) member["type"] = m.type;
    member["selector"] = std::move(selector);
    out.push_back(std::move(member));
  }
  return out;
}

json encode_hyper_node(const DesiredHyperNode& h) {
  json metadata = {{"name", h.name}};
  if (!h.labels.empty()) metadata["labels"] = h.labels;
  json spec = json::object();
  if (h.tier != 0) spec["tier"] = h.tier;
  if (!h.tier_name.empty()) spec["tierName"] = h.tier_name;
  if (!h.members.empty()) spec["members"] = encode_members(h.members);
  return {{"apiVersion", volcano::kHyperNodeApiVersion},
          {"kind", volcano::kHyperNodeKind},
          {"metadata", std::move(metadata)},
          {"spec", std::move(spec)}};
}

}  // namespace vc::controllers::hypernode
