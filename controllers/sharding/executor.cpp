#include "controllers/sharding/executor.h"

#include "common/kube/resource.h"
#include "common/log/log.h"

namespace vc::controllers::sharding {

using log::kv;

std::string apply_write(kube::Client& client, const std::string& name, const ShardWrite& write) {
  const std::size_t nodes =
      write.object.contains("spec")
          ? write.object["spec"].value("nodesDesired", nlohmann::json::array()).size()
          : 0;
  switch (write.kind) {
    case ShardWrite::Kind::None:
      return "";
    case ShardWrite::Kind::Create: {
      auto r = client.create(kube::resources::nodeshards, "", write.object);
      if (r) {
        VC_LOG_INFO("created NodeShard", kv("nodeshard", name), kv("nodes", nodes));
        return "";
      }
      if (r.error().kind == kube::ErrorKind::AlreadyExists) {
        VC_LOG_INFO("NodeShard was created concurrently", kv("nodeshard", name));
        return "";
      }
      return "failed to create shard " + name + ": " + r.error().describe();
    }
    case ShardWrite::Kind::Update: {
      auto r = client.update(kube::resources::nodeshards, "", write.object);
      if (r) {
        VC_LOG_INFO("updated NodeShard", kv("nodeshard", name), kv("nodes", nodes));
        return "";
      }
      return "failed to update shard " + name + ": " + r.error().describe();
    }
  }
  return "";
}

std::string delete_shard(kube::Client& client, const std::string& name) {
  auto r = client.remove(kube::resources::nodeshards, "", name);
  if (r || r.error().kind == kube::ErrorKind::NotFound) {
    VC_LOG_INFO("deleted stale NodeShard (scheduler no longer configured)", kv("nodeshard", name));
    return "";
  }
  return "failed to delete stale NodeShard " + name + ": " + r.error().describe();
}

}  // namespace vc::controllers::sharding
