#include "controllers/explain/placement.h"

#include "controllers/explain/json_read.h"
#include "controllers/explain/node_affinity.h"

namespace vc::controllers::explain {

bool tolerates(const nlohmann::json& tolerations, const nlohmann::json& taint) {
  if (!tolerations.is_array()) return false;
  const std::string key = str(taint, {"key"});
  const std::string value = str(taint, {"value"});
  const std::string effect = str(taint, {"effect"});
  for (const nlohmann::json& t : tolerations) {
    const std::string t_effect = str(t, {"effect"});
    if (!t_effect.empty() && t_effect != effect) continue;
    const std::string op = str_or(t, {"operator"}, "Equal");
    const std::string t_key = str(t, {"key"});
    if (op == "Exists") {
      if (t_key.empty() || t_key == key) return true;
      continue;
    }
    if (op == "Equal" && t_key == key && str(t, {"value"}) == value) return true;
  }
  return false;
}

PlacementCheck check_placement(const nlohmann::json& pod,
                               const std::vector<nlohmann::json>& nodes) {
  PlacementCheck out;
  const nlohmann::json& selector = at(pod, {"spec", "nodeSelector"});
  if (selector.is_object()) {
    for (const auto& [k, v] : selector.items()) {
      if (!out.selector.empty()) out.selector += ", ";
      out.selector += k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
    }
  }
  out.affinity = describe_required_node_affinity(pod);
  const bool affinity = has_required_node_affinity(pod);
  const nlohmann::json& tolerations = at(pod, {"spec", "tolerations"});
  for (const nlohmann::json& node : nodes) {
    if (affinity && !node_affinity_matches(pod, node)) continue;
    if (selector.is_object()) {
      const nlohmann::json& labels = at(node, {"metadata", "labels"});
      bool match = true;
      for (const auto& [k, v] : selector.items()) {
        if (!labels.is_object() || !labels.contains(k) || labels[k] != v) {
          match = false;
          break;
        }
      }
      if (!match) continue;
    }
    ++out.selector_matches;
    bool ok = true;
    for (const nlohmann::json& taint : array_at(node, {"spec", "taints"})) {
      const std::string effect = str(taint, {"effect"});
      if (effect != "NoSchedule" && effect != "NoExecute") continue;
      if (tolerates(tolerations, taint)) continue;
      ok = false;
      if (out.untolerated_taint.empty()) {
        out.untolerated_taint = str(taint, {"key"});
        if (const std::string v = str(taint, {"value"}); !v.empty())
          out.untolerated_taint += "=" + v;
        out.untolerated_taint += ":" + effect;
      }
      break;
    }
    if (ok) {
      ++out.tolerated;
      out.eligible.insert(str(node, {"metadata", "name"}));
    }
  }
  return out;
}

}  // namespace vc::controllers::explain
