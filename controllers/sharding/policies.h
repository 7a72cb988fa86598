#pragma once
// The shard policies and the assignment of nodes to schedulers
// (spec controller-manager.md §5.7.2): each scheduler, in configuration order, takes from the nodes
// no earlier scheduler took those that pass every filter (allocation-rate), ordered by the weighted
// sum of scores (allocation-rate, warmup; stable, so ties keep the input order), cut by the
// selectors (node-limit). Nodes are handled in batches of kBatchSize, each batch on its own.
//
//   auto chains = resolve_chains(specs);        // chains.error: the first policy that failed
//   auto shards = assign_nodes(chains.chains, nodes);
//
// Threads: pure functions.

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/api/expected.h"
#include "common/kube/cache/object.h"
#include "controllers/sharding/config.h"

namespace vc::controllers::sharding {

inline constexpr std::size_t kBatchSize = 50;
inline constexpr const char* kDefaultWarmupLabel = "node.volcano.sh/warmup";

// Filter and score on the CPU utilization rounded to two decimals.
struct AllocationRate {
  double min_rounded = 0;
  double max_rounded = 1;
};
// Score 1 for a node whose label `label` equals `value`, else 0.
struct Warmup {
  std::string label = kDefaultWarmupLabel;
  std::string value = "true";
};
// Keeps the first max_nodes candidates (max_nodes <= 0: all); min_nodes is only reported.
struct NodeLimit {
  long long min_nodes = 0;
  long long max_nodes = 0;
};

struct Policy {
  std::string name;
  int weight = 1;
  std::variant<AllocationRate, Warmup, NodeLimit> impl;
};

// A policy from its spec; the error says why its arguments are refused.
api::Expected<Policy> make_policy(const PolicySpec& spec);

struct SchedulerChain {
  std::string name;
  std::vector<Policy> policies;
};

struct ResolvedChains {
  std::vector<SchedulerChain> chains;  // one per scheduler, in configuration order
  std::string error;                   // "" or the first failure
};

// Every scheduler's effective chain. As Volcano, the first policy that fails stops the work:
// that scheduler and every later one get an empty chain (no filter, no limit).
ResolvedChains resolve_chains(const std::vector<SchedulerSpec>& specs);

// What the policies read of a node.
struct NodeFacts {
  std::string name;
  kube::cache::Labels labels;
  std::optional<double> cpu_utilization;  // null: no metrics yet
};

struct Assignment {
  std::string scheduler;
  std::vector<std::string> nodes;
};

double round_utilization(double u);

// One scheduler over candidates (already without other schedulers' nodes).
std::vector<std::string> run_chain(const SchedulerChain& chain,
                                   const std::vector<const NodeFacts*>& candidates);

// Every scheduler, in order, over the nodes in the given order, batch by batch.
std::vector<Assignment> assign_nodes(const std::vector<SchedulerChain>& chains,
                                     const std::vector<NodeFacts>& nodes);

}  // namespace vc::controllers::sharding
