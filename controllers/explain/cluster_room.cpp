#include "controllers/explain/cluster_room.h"

#include <map>

#include "controllers/views/pod_resources.h"

namespace vc::controllers::explain {

api::ResourceList resources(const nlohmann::json& j, Path path) {
  api::ResourceList out;
  const nlohmann::json& v = at(j, path);
  if (!v.is_object()) return out;
  for (const auto& [name, text] : v.items()) {
    if (!text.is_string()) continue;
    if (auto q = api::Quantity::parse(text.get<std::string>())) out.emplace(name, *q);
  }
  return out;
}

api::ResourceList schedulable(const api::ResourceList& list) {
  api::ResourceList out;
  for (const auto& [name, q] : list) {
    if (name.starts_with("requests.") || name.starts_with("limits.") ||
        name.starts_with("count/")) {
      continue;
    }
    out.emplace(name, q);
  }
  return out;
}

std::string exceeding(const api::ResourceList& need, const api::ResourceList& have,
                      api::MissingDimension missing) {
  std::string out;
  for (const auto& [name, q] : need) {
    const auto it = have.find(name);
    if (it == have.end() && missing == api::MissingDimension::Unlimited) continue;
    const api::Quantity has = it == have.end() ? api::Quantity() : it->second;
    if (q <= has) continue;
    if (!out.empty()) out += "; ";
    out += name + ": needs " + q.to_string() + ", has " + has.to_string();
  }
  return out;
}

api::ResourceList pod_requests_of(const nlohmann::json& pod) {
  try {
    return views::pod_requests(at(pod, {"spec"}));
  } catch (const std::exception&) {
    return {};
  }
}

namespace {

bool node_schedulable(const nlohmann::json& node) {
  if (at(node, {"spec", "unschedulable"}) == true) return false;
  for (const nlohmann::json& c : array_at(node, {"status", "conditions"})) {
    if (str(c, {"type"}) == "Ready") return str(c, {"status"}) == "True";
  }
  return false;
}

}  // namespace

ClusterRoom cluster_room(const std::vector<nlohmann::json>& nodes,
                         const std::vector<nlohmann::json>& node_pods) {
  std::map<std::string, api::ResourceList> used;
  for (const nlohmann::json& p : node_pods) {
    const std::string node = str(p, {"spec", "nodeName"});
    const std::string phase = str(p, {"status", "phase"});
    if (node.empty() || pod_deleted(p) || phase == "Succeeded" || phase == "Failed") continue;
    api::ResourceList req = pod_requests_of(p);
    req["pods"] = api::Quantity::must_parse("1");
    api::add_to(used[node], req);
  }
  ClusterRoom room;
  for (const nlohmann::json& n : nodes) {
    if (!node_schedulable(n)) continue;
    NodeRoom r;
    r.name = str(n, {"metadata", "name"});
    r.allocatable = resources(n, {"status", "allocatable"});
    r.free = r.allocatable;
    if (const auto it = used.find(r.name); it != used.end()) {
      for (const auto& [name, q] : it->second) {
        if (auto f = r.free.find(name); f != r.free.end()) f->second -= q;
      }
    }
    api::add_to(room.allocatable, r.allocatable);
    api::add_to(room.free, r.free);
    room.nodes.push_back(std::move(r));
  }
  return room;
}

}  // namespace vc::controllers::explain

namespace vc::controllers::explain {

std::size_t pods_that_fit(const std::vector<api::ResourceList>& each,
                          const std::vector<NodeRoom>& nodes) {
  std::vector<api::ResourceList> free;
  free.reserve(nodes.size());
  for (const NodeRoom& n : nodes) free.push_back(n.free);
  std::size_t placed = 0;
  for (api::ResourceList need : each) {
    need["pods"] = api::Quantity::must_parse("1");
    for (api::ResourceList& f : free) {
      if (!exceeding(need, f, api::MissingDimension::Zero).empty()) continue;
      for (const auto& [name, q] : need) f[name] -= q;
      ++placed;
      break;
    }
  }
  return placed;
}

ClusterRoom restrict_to(const ClusterRoom& room, const std::set<std::string>& names) {
  ClusterRoom out;
  for (const NodeRoom& n : room.nodes) {
    if (!names.contains(n.name)) continue;
    api::add_to(out.allocatable, n.allocatable);
    api::add_to(out.free, n.free);
    out.nodes.push_back(n);
  }
  return out;
}

api::ResourceList only(const api::ResourceList& list, const api::ResourceList& keys) {
  api::ResourceList out;
  for (const auto& [name, q] : list) {
    if (keys.contains(name)) out.emplace(name, q);
  }
  return out;
}

}  // namespace vc::controllers::explain
