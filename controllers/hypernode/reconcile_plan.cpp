#include "controllers/hypernode/reconcile_plan.h"

#include <algorithm>
#include <map>

namespace vc::controllers::hypernode {
namespace {

using nlohmann::json;

bool same_spec(const volcano::HyperNodeSpec& spec, const DesiredHyperNode& d) {
  return spec.tier == d.tier && spec.tier_name == d.tier_name && spec.members == d.members;
}

bool has_labels(const volcano::HyperNode& h, const DesiredHyperNode& d) {
  return std::all_of(d.labels.begin(), d.labels.end(), [&](const auto& kv) {
    const std::string* v = h.label(kv.first);
    return v != nullptr && *v == kv.second;
  });
}

json update_patch(const volcano::HyperNode& current, const DesiredHyperNode& d) {
  json metadata = {{"resourceVersion", current.resource_version}};
  json labels = json::object();
  for (const auto& [k, v] : d.labels) {
    const std::string* now = current.label(k);
    if (now == nullptr || *now != v) labels[k] = v;
  }
  if (!labels.empty()) metadata["labels"] = std::move(labels);
  // Null removes a field in a merge patch: how Go's omitempty leaves out a zero value.
  json spec = {{"tier", d.tier == 0 ? json(nullptr) : json(d.tier)},
               {"tierName", d.tier_name.empty() ? json(nullptr) : json(d.tier_name)},
               {"members", d.members.empty() ? json(nullptr) : encode_members(d.members)}};
  return {{"metadata", std::move(metadata)}, {"spec", std::move(spec)}};
}

}  // namespace

bool up_to_date(const volcano::HyperNode& current, const DesiredHyperNode& desired) {
  return same_spec(current.spec, desired) && has_labels(current, desired);
}

ReconcilePlan plan_reconcile(std::string_view source, const std::vector<DesiredHyperNode>& desired,
                             const std::vector<const volcano::HyperNode*>& existing) {
  std::map<std::string, const volcano::HyperNode*> owned;
  for (const volcano::HyperNode* h : existing) {
    const std::string* owner = h->label(kSourceLabel);
    if (owner != nullptr && *owner == source) owned[h->name] = h;
  }
  std::map<std::string, const DesiredHyperNode*> wanted;
  for (const DesiredHyperNode& d : desired) wanted[d.name] = &d;

  ReconcilePlan plan;
  for (const auto& [name, d] : wanted) {
    auto it = owned.find(name);
    if (it == owned.end()) {
      plan.creates.push_back({.hyper_node = *d});
    } else if (!up_to_date(*it->second, *d)) {
      plan.updates.push_back({.name = name, .patch = update_patch(*it->second, *d)});
    }
  }
  for (const auto& [name, h] : owned) {
    if (!wanted.contains(name)) plan.deletes.push_back({.name = name});
  }
  std::stable_sort(plan.creates.begin(), plan.creates.end(), [](const auto& a, const auto& b) {
    return a.hyper_node.tier < b.hyper_node.tier;
  });
  std::stable_sort(plan.deletes.begin(), plan.deletes.end(), [&](const auto& a, const auto& b) {
    return owned.at(a.name)->spec.tier > owned.at(b.name)->spec.tier;
  });
  return plan;
}

}  // namespace vc::controllers::hypernode
