#pragma once
// Sends the sharding-controller's writes (spec controller-manager.md §5.7.4): a NodeShard
// created (AlreadyExists counts as done), updated with a PUT of the cached object (a Conflict is
// an error the caller retries), or deleted (NotFound counts as done). Each returns "" or the
// error text naming the NodeShard.
//
// Threads: any thread; blocks on the API call.

#include <string>

#include "common/kube/client.h"
#include "controllers/sharding/plan.h"

namespace vc::controllers::sharding {

std::string apply_write(kube::Client& client, const std::string& name, const ShardWrite& write);
std::string delete_shard(kube::Client& client, const std::string& name);

}  // namespace vc::controllers::sharding
