#pragma once
// The hyperNode-controller's executor: applies a discovery round's ReconcilePlan through the API
// server and writes status.nodeCount (spec controller-manager.md §5.5.2, §5.5.5).
//
// A round's failures are logged with the HyperNode and the source and the round goes on; nothing
// is retried until the next result, except an update that conflicts: the HyperNode is read again
// and, if the source still owns it and it still differs, patched again with the new
// resourceVersion (at most kUpdateTries times, as client-go's default retry), and a create refused
// with AlreadyExists by a HyperNode the source owns (an earlier round's, not yet in the cache):
// it is read and patched the same way.
//
// Threads: any thread; blocks on the API calls. The controller runs one round at a time.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/kube/client.h"
#include "controllers/hypernode/desired.h"
#include "controllers/hypernode/reconcile_plan.h"

namespace vc::controllers::hypernode {

inline constexpr int kUpdateTries = 5;

struct RoundOutcome {
  int written = 0;  // creates, updates and deletes that succeeded
  int failed = 0;
};

// `desired` is the result the plan was made from (the conflict retry plans one HyperNode again).
RoundOutcome execute_plan(const ReconcilePlan& plan, std::string_view source,
                          const std::vector<DesiredHyperNode>& desired, kube::Client& client);

// Sends a node_count_patch to the HyperNode's status subresource; "" or the error.
std::string write_node_count(kube::Client& client, const std::string& name,
                             const nlohmann::json& patch);

}  // namespace vc::controllers::hypernode
