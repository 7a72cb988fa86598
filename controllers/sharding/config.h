#pragma once
// The sharding-controller's configuration (spec controller-manager.md §5.7.1): the deprecated
// --scheduler-configs entries "name:type:minUtil:maxUtil:preferWarmup:minNodes:maxNodes" and the
// YAML document under key sharding.yaml of the sharding ConfigMap, both turned into the same
// per-scheduler spec, and the effective policy chain of a spec (the legacy fields synthesized
// into policies, weight 0 read as 1).
//
//   auto specs = parse_flag_configs({"volcano:volcano:0.0:0.6:false:2:100"});
//   auto file = parse_sharding_yaml(configmap_text);   // error names the field
//
// Threads: pure functions.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/api/expected.h"

namespace vc::controllers::sharding {

inline constexpr const char* kConfigMapKey = "sharding.yaml";
inline constexpr const char* kAllocationRate = "allocation-rate";
inline constexpr const char* kWarmup = "warmup";
inline constexpr const char* kNodeLimit = "node-limit";

// One policy argument as JSON decoding into interface{} leaves it: every number a float64.
struct PolicyArg {
  enum class Kind { Number, String, Bool, Other };
  Kind kind = Kind::Other;
  double number = 0;
  std::string text;
  bool boolean = false;

  static PolicyArg of_number(double v) {
    PolicyArg a;
    a.kind = Kind::Number;
    a.number = v;
    return a;
  }
  static PolicyArg of_text(std::string v) {
    PolicyArg a;
    a.kind = Kind::String;
    a.text = std::move(v);
    return a;
  }
};
using PolicyArgs = std::map<std::string, PolicyArg>;

struct PolicySpec {
  std::string name;
  int weight = 0;  // 0: omitted (read as 1)
  PolicyArgs arguments;
};

struct SchedulerSpec {
  std::string name;  // also the NodeShard's name
  std::string type;
  std::vector<PolicySpec> policies;
  PolicyArgs arguments;  // legacy single-policy arguments
  double cpu_utilization_min = 0;
  double cpu_utilization_max = 0;
  bool prefer_warmup_nodes = false;
  long long min_nodes = 0;
  long long max_nodes = 0;
};

// The sharding ConfigMap's document.
struct FileConfig {
  std::vector<SchedulerSpec> schedulers;
  std::string shard_sync_period;                  // Go duration text; "" = keep
  std::optional<bool> enable_node_event_trigger;  // absent = keep
};

// The defaults of --scheduler-configs.
std::vector<std::string> default_flag_configs();

// One flag entry; the error names the part ("invalid max nodes: ...").
api::Expected<SchedulerSpec> parse_flag_entry(std::string_view entry);
// Every entry; the first bad one fails the whole list.
api::Expected<std::vector<SchedulerSpec>> parse_flag_configs(const std::vector<std::string>& raw);
// What Volcano runs with from the flags: the entries, or the defaults when any entry is bad
// (the error is returned in `error` for a warning).
std::vector<SchedulerSpec> flag_scheduler_specs(const std::vector<std::string>& raw,
                                                std::string* error);

// The ConfigMap document (sigs.k8s.io/yaml semantics: keys match ignoring ASCII case, unknown
// keys ignored), validated as Volcano validates it. The error names the field, e.g.
// "schedulerConfigs[1] (agent): maxNodes (1) must be >= minNodes (2)".
api::Expected<FileConfig> parse_sharding_yaml(std::string_view text);

// The chain a scheduler runs: its policies, or the legacy fields made into allocation-rate (and
// warmup); node-limit appended from minNodes/maxNodes when absent. Weights 0 become 1.
std::vector<PolicySpec> effective_policies(const SchedulerSpec& spec);

// The per-policy rules of both entry points; "" when fine.
std::string validate_policies(std::size_t index, const SchedulerSpec& spec);

}  // namespace vc::controllers::sharding
