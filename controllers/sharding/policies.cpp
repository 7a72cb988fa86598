#include "controllers/sharding/policies.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <set>

namespace vc::controllers::sharding {
namespace {

std::string fixed2(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// Arguments.GetFloat64 / GetInt / GetString: a value of another type is ignored (Volcano logs a
// warning) and the default stays.
void get_number(const PolicyArgs& args, const char* key, double& out) {
  auto it = args.find(key);
  if (it != args.end() && it->second.kind == PolicyArg::Kind::Number) out = it->second.number;
}
void get_int(const PolicyArgs& args, const char* key, long long& out) {
  auto it = args.find(key);
  if (it != args.end() && it->second.kind == PolicyArg::Kind::Number) {
    out = static_cast<long long>(std::trunc(it->second.number));
  }
}
void get_text(const PolicyArgs& args, const char* key, std::string& out) {
  auto it = args.find(key);
  if (it != args.end() && it->second.kind == PolicyArg::Kind::String) out = it->second.text;
}

const std::string* label_of(const kube::cache::Labels& labels, const std::string& key) {
  auto it = std::lower_bound(labels.begin(), labels.end(), key,
                             [](const auto& kv, const std::string& k) { return kv.first < k; });
  if (it != labels.end() && it->first == key) return &it->second;
  for (const auto& kv : labels) {  // unsorted input (tests)
    if (kv.first == key) return &kv.second;
  }
  return nullptr;
}

struct Filters {
  bool operator()(const AllocationRate& p, const NodeFacts& n) const {
    if (!n.cpu_utilization || *n.cpu_utilization < 0) return false;
    const double u = round_utilization(*n.cpu_utilization);
    return u >= p.min_rounded && u <= p.max_rounded;
  }
};

double score(const AllocationRate& p, const NodeFacts& n) {
  if (!n.cpu_utilization || *n.cpu_utilization < 0) return 0;
  const double range = p.max_rounded - p.min_rounded;
  if (range == 0) return 1;
  const double s = (round_utilization(*n.cpu_utilization) - p.min_rounded) / range;
  return std::clamp(s, 0.0, 1.0);
}

double score(const Warmup& p, const NodeFacts& n) {
  const std::string* v = label_of(n.labels, p.label);
  // A missing label reads as "" (a Go map), so an empty value matches unlabelled nodes.
  return (v != nullptr ? *v : std::string()) == p.value ? 1.0 : 0.0;
}

}  // namespace

double round_utilization(double u) {
  return std::round(u * 100) / 100;
}

api::Expected<Policy> make_policy(const PolicySpec& spec) {
  Policy p;
  p.name = spec.name;
  p.weight = spec.weight == 0 ? 1 : spec.weight;
  if (spec.name == kAllocationRate) {
    double lo = 0, hi = 0;
    get_number(spec.arguments, "minCPUUtil", lo);
    get_number(spec.arguments, "maxCPUUtil", hi);
    if (lo < 0 || hi > 1 || lo > hi) {
      return api::Unexpected{"invalid CPU utilization range [" + fixed2(lo) + ", " + fixed2(hi) +
                             "]: must be within [0.0, 1.0] and min <= max"};
    }
    p.impl =
        AllocationRate{.min_rounded = round_utilization(lo), .max_rounded = round_utilization(hi)};
    return p;
  }
  if (spec.name == kWarmup) {
    Warmup w;
    get_text(spec.arguments, "warmupLabel", w.label);
    get_text(spec.arguments, "warmupLabelValue", w.value);
    if (w.label.empty()) return api::Unexpected{"warmupLabel cannot be empty"};
    p.impl = w;
    return p;
  }
  if (spec.name == kNodeLimit) {
    NodeLimit l;
    get_int(spec.arguments, "minNodes", l.min_nodes);
    get_int(spec.arguments, "maxNodes", l.max_nodes);
    if (l.min_nodes < 0) {
      return api::Unexpected{"invalid minNodes " + std::to_string(l.min_nodes) + ": must be >= 0"};
    }
    if (l.max_nodes > 0 && l.max_nodes < l.min_nodes) {
      return api::Unexpected{"invalid bounds [" + std::to_string(l.min_nodes) + ", " +
                             std::to_string(l.max_nodes) + "]: maxNodes must be >= minNodes"};
    }
    p.impl = l;
    return p;
  }
  return api::Unexpected{"policy " + spec.name + " not found"};
}

ResolvedChains resolve_chains(const std::vector<SchedulerSpec>& specs) {
  ResolvedChains out;
  for (const SchedulerSpec& spec : specs) {
    SchedulerChain chain{.name = spec.name, .policies = {}};
    if (out.error.empty()) {
      for (const PolicySpec& ps : effective_policies(spec)) {
        auto p = make_policy(ps);
        if (!p) {
          out.error = "failed to initialize policy " + ps.name + " for scheduler " + spec.name +
                      ": " + p.error();
          chain.policies.clear();
          break;
        }
        chain.policies.push_back(std::move(*p));
      }
    }
    out.chains.push_back(std::move(chain));
  }
  return out;
}

std::vector<std::string> run_chain(const SchedulerChain& chain,
                                   const std::vector<const NodeFacts*>& input) {
  // Filter: every filtering policy must accept the node.
  std::vector<const NodeFacts*> candidates;
  for (const NodeFacts* n : input) {
    bool pass = true;
    for (const Policy& p : chain.policies) {
      if (const auto* a = std::get_if<AllocationRate>(&p.impl); a && !Filters{}(*a, *n)) {
        pass = false;
        break;
      }
    }
    if (pass) candidates.push_back(n);
  }
  // Score: weighted sum, stable sort descending, only when a scorer is configured.
  bool any_scorer = false;
  std::vector<double> scores(candidates.size(), 0.0);
  for (const Policy& p : chain.policies) {
    if (std::holds_alternative<NodeLimit>(p.impl)) continue;
    any_scorer = true;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const double s = std::visit(
          [&](const auto& impl) -> double {
            using T = std::decay_t<decltype(impl)>;
            if constexpr (std::is_same_v<T, NodeLimit>) {
              return 0;
            } else {
              return score(impl, *candidates[i]);
            }
          },
          p.impl);
      scores[i] += p.weight * s;
    }
  }
  if (any_scorer && candidates.size() > 1) {
    std::vector<std::size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    std::vector<const NodeFacts*> sorted;
    for (std::size_t i : order) sorted.push_back(candidates[i]);
    candidates = std::move(sorted);
  }
  // Select: every selector in order; an empty result stops the chain.
  for (const Policy& p : chain.policies) {
    const auto* limit = std::get_if<NodeLimit>(&p.impl);
    if (limit == nullptr) continue;
    if (limit->max_nodes > 0 && candidates.size() > static_cast<std::size_t>(limit->max_nodes)) {
      candidates.resize(static_cast<std::size_t>(limit->max_nodes));
    }
    if (candidates.empty()) break;
  }
  std::vector<std::string> names;
  for (const NodeFacts* n : candidates) names.push_back(n->name);
  return names;
}

std::vector<Assignment> assign_nodes(const std::vector<SchedulerChain>& chains,
                                     const std::vector<NodeFacts>& nodes) {
  std::vector<Assignment> out;
  for (const SchedulerChain& c : chains) out.push_back({.scheduler = c.name, .nodes = {}});
  // Batches when there are more nodes than one batch holds, each batch on its own.
  const std::size_t batch =
      nodes.size() > kBatchSize ? kBatchSize : std::max<std::size_t>(nodes.size(), 1);
  for (std::size_t start = 0; start < nodes.size(); start += batch) {
    const std::size_t end = std::min(nodes.size(), start + batch);
    std::set<std::string> taken;
    for (std::size_t i = 0; i < chains.size(); ++i) {
      std::vector<const NodeFacts*> candidates;
      for (std::size_t k = start; k < end; ++k) {
        if (!taken.contains(nodes[k].name)) candidates.push_back(&nodes[k]);
      }
      auto picked = run_chain(chains[i], candidates);
      for (auto& name : picked) {
        taken.insert(name);
        out[i].nodes.push_back(std::move(name));
      }
    }
  }
  return out;
}

}  // namespace vc::controllers::sharding
