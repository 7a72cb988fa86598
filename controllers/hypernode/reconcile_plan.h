#pragma once
// One discovery result against the HyperNodes its source owns (spec controller-manager.md §5.5.2):
// create what is new, update what differs, delete what was not discovered. Owned means
// labelled volcano.sh/network-topology-source=<source>; every other HyperNode is left alone.
//
// Unlike Volcano, which writes every owned HyperNode (spec, then status) in every round, an
// owned HyperNode is updated only when its spec or one of the source's labels differs, by a
// merge patch that carries the cached resourceVersion and never touches status (nodeCount
// belongs to the status worker, spec controller-manager.md §5.5.5).
//
// Threads: a pure function over plain data.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/volcano/hyper_node.h"
#include "controllers/hypernode/desired.h"

namespace vc::controllers::hypernode {

struct CreateHyperNode {
  DesiredHyperNode hyper_node{};
  friend bool operator==(const CreateHyperNode&, const CreateHyperNode&) = default;
};

struct UpdateHyperNode {
  std::string name{};
  // A JSON merge patch: metadata.resourceVersion (a Conflict if the object moved on), the
  // labels that differ, and the whole spec (absent fields as null).
  nlohmann::json patch{};
  friend bool operator==(const UpdateHyperNode&, const UpdateHyperNode&) = default;
};

struct DeleteHyperNode {
  std::string name{};
  friend bool operator==(const DeleteHyperNode&, const DeleteHyperNode&) = default;
};

// Performed in this order: creates by tier then name (members exist before their parents),
// updates by name, deletes from the highest tier down then by name (parents go before their
// members). A failed call does not stop the others.
struct ReconcilePlan {
  std::vector<CreateHyperNode> creates{};
  std::vector<UpdateHyperNode> updates{};
  std::vector<DeleteHyperNode> deletes{};
  bool empty() const { return creates.empty() && updates.empty() && deletes.empty(); }
};

// `existing` is every cached HyperNode; those `source` does not own are ignored. A discovered
// name repeated in `desired` keeps its last entry.
ReconcilePlan plan_reconcile(std::string_view source, const std::vector<DesiredHyperNode>& desired,
                             const std::vector<const volcano::HyperNode*>& existing);

// Whether the HyperNode already has the desired spec and carries the desired labels.
bool up_to_date(const volcano::HyperNode& current, const DesiredHyperNode& desired);

}  // namespace vc::controllers::hypernode
