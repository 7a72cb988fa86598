#pragma once
// What the sharding-controller writes for one scheduler's assignment, given the NodeShard the
// cache holds (spec controller-manager.md §5.7.4): create it when missing, update
// spec.nodesDesired when the node count differs or at least max(1, n/10) of the n desired nodes
// are new, else nothing. And which NodeShards a global sync deletes: every one whose name is no
// configured scheduler's.
//
// Threads: pure functions.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vc::controllers::sharding {

struct ShardWrite {
  enum class Kind { None, Create, Update };
  Kind kind = Kind::None;
  nlohmann::json object;  // the body to send (Create: new object; Update: cached object, new spec)
};

// Whether the desired list differs enough from spec.nodesDesired to be written.
bool needs_update(const std::vector<std::string>& current, const std::vector<std::string>& desired);

// `cached` is the NodeShard as the cache has it (null: none).
ShardWrite plan_shard(const std::string& name, const std::vector<std::string>& desired,
                      const nlohmann::json* cached);

// spec.nodesDesired of a NodeShard object (missing or malformed: empty).
std::vector<std::string> nodes_desired(const nlohmann::json& shard);

// The names in `existing` that are not in `configured`, in the order of `existing`.
std::vector<std::string> stale_shards(const std::vector<std::string>& existing,
                                      const std::vector<std::string>& configured);

}  // namespace vc::controllers::sharding
