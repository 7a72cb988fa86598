#include "controllers/sharding/plan.h"

#include <algorithm>
#include <set>

namespace vc::controllers::sharding {

bool needs_update(const std::vector<std::string>& current,
                  const std::vector<std::string>& desired) {
  if (current.size() != desired.size()) return true;
  const std::set<std::string> have(current.begin(), current.end());
  const std::size_t threshold = std::max<std::size_t>(1, desired.size() / 10);
  std::size_t changed = 0;
  for (const auto& n : desired) {
    if (!have.contains(n) && ++changed >= threshold) return true;
  }
  return false;
}

std::vector<std::string> nodes_desired(const nlohmann::json& shard) {
  std::vector<std::string> out;
  auto spec = shard.find("spec");
  if (spec == shard.end() || !spec->is_object()) return out;
  auto nodes = spec->find("nodesDesired");
  if (nodes == spec->end() || !nodes->is_array()) return out;
  for (const auto& n : *nodes) {
    if (n.is_string()) out.push_back(n.get<std::string>());
  }
  return out;
}

ShardWrite plan_shard(const std::string& name, const std::vector<std::string>& desired,
                      const nlohmann::json* cached) {
  ShardWrite w;
  if (cached == nullptr) {
    w.kind = ShardWrite::Kind::Create;
    w.object = {{"apiVersion", "shard.volcano.sh/v1alpha1"},
                {"kind", "NodeShard"},
                {"metadata", {{"name", name}}},
                {"spec", {{"nodesDesired", desired}}}};
    return w;
  }
  if (!needs_update(nodes_desired(*cached), desired)) return w;
  w.kind = ShardWrite::Kind::Update;
  w.object = *cached;
  w.object["spec"]["nodesDesired"] = desired;
  return w;
}

std::vector<std::string> stale_shards(const std::vector<std::string>& existing,
                                      const std::vector<std::string>& configured) {
  const std::set<std::string> keep(configured.begin(), configured.end());
  std::vector<std::string> out;
  for (const auto& n : existing) {
    if (!keep.contains(n)) out.push_back(n);
  }
  return out;
}

}  // namespace vc::controllers::sharding
