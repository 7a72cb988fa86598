#include "controllers/sharding/config.h"

#include <cmath>
#include <cstdio>

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include "common/go/strconv.h"
#include "common/go/yaml_fields.h"
#include "common/go/yaml_scalar.h"

namespace vc::controllers::sharding {
namespace {

using nlohmann::json;

std::string fixed2(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// The YAML tree as the JSON sigs.k8s.io/yaml would hand to encoding/json.
api::Expected<json> to_json(const YAML::Node& n, const std::string& path) {
  switch (n.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return json(nullptr);
    case YAML::NodeType::Scalar: {
      auto v = go::scalar_to_json(go::yaml_resolve(n));
      if (!v) return api::Unexpected{path + ": " + v.error()};
      return *v;
    }
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (std::size_t i = 0; i < n.size(); ++i) {
        auto v = to_json(n[i], path + "[" + std::to_string(i) + "]");
        if (!v) return v;
        out.push_back(std::move(*v));
      }
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& kv : n) {
        if (!kv.first.IsScalar()) return api::Unexpected{path + ": a map key is not a scalar"};
        auto key = go::scalar_key(go::yaml_resolve(kv.first));
        if (!key) return api::Unexpected{path + ": " + key.error()};
        auto v = to_json(kv.second, path.empty() ? *key : path + "." + *key);
        if (!v) return v;
        out[*key] = std::move(*v);
      }
      return out;
    }
  }
  return json(nullptr);
}

bool ascii_iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// encoding/json's field lookup: an exact key, else one equal ignoring case.
const json* member(const json& obj, std::string_view key) {
  if (auto it = obj.find(std::string(key)); it != obj.end()) return &*it;
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (ascii_iequal(it.key(), key)) return &*it;
  }
  return nullptr;
}

const char* json_kind(const json& v) {
  if (v.is_string()) return "string";
  if (v.is_number()) return "number";
  if (v.is_boolean()) return "bool";
  if (v.is_array()) return "array";
  if (v.is_object()) return "object";
  return "null";
}

// Typed reads: a null or absent value leaves the target as it is (encoding/json).
class Decoder {
 public:
  std::string error;

  bool fail(const std::string& path, const json& v, const char* want) {
    if (error.empty()) {
      error = path + ": cannot read a " + json_kind(v) + " as " + want;
    }
    return false;
  }
  void text(const json& obj, std::string_view key, const std::string& path, std::string& out) {
    const json* v = member(obj, key);
    if (v == nullptr || v->is_null()) return;
    if (!v->is_string()) {
      fail(path, *v, "a string");
      return;
    }
    out = v->get<std::string>();
  }
  void number(const json& obj, std::string_view key, const std::string& path, double& out) {
    const json* v = member(obj, key);
    if (v == nullptr || v->is_null()) return;
    if (!v->is_number()) {
      fail(path, *v, "a number");
      return;
    }
    out = v->get<double>();
  }
  void integer(const json& obj, std::string_view key, const std::string& path, long long& out) {
    const json* v = member(obj, key);
    if (v == nullptr || v->is_null()) return;
    if (!v->is_number_integer()) {
      fail(path, *v, "an integer");
      return;
    }
    out = v->is_number_unsigned() ? static_cast<long long>(v->get<unsigned long long>())
                                  : v->get<long long>();
  }
  void boolean(const json& obj, std::string_view key, const std::string& path, bool& out) {
    const json* v = member(obj, key);
    if (v == nullptr || v->is_null()) return;
    if (!v->is_boolean()) {
      fail(path, *v, "a bool");
      return;
    }
    out = v->get<bool>();
  }
  void arguments(const json& obj, const std::string& path, PolicyArgs& out) {
    const json* v = member(obj, "arguments");
    if (v == nullptr || v->is_null()) return;
    if (!v->is_object()) {
      fail(path, *v, "a map");
      return;
    }
    for (auto it = v->begin(); it != v->end(); ++it) {
      PolicyArg arg;
      if (it->is_number()) {
        arg = PolicyArg::of_number(it->get<double>());
      } else if (it->is_string()) {
        arg = PolicyArg::of_text(it->get<std::string>());
      } else if (it->is_boolean()) {
        arg.kind = PolicyArg::Kind::Bool;
        arg.boolean = it->get<bool>();
      }
      out[it.key()] = std::move(arg);
    }
  }
  const json* array(const json& obj, std::string_view key, const std::string& path) {
    const json* v = member(obj, key);
    if (v == nullptr || v->is_null()) return nullptr;
    if (!v->is_array()) {
      fail(path, *v, "a list");
      return nullptr;
    }
    return v;
  }
};

SchedulerSpec decode_scheduler(const json& item, const std::string& path, Decoder& d) {
  SchedulerSpec s;
  if (!item.is_object()) {
    if (!item.is_null()) d.fail(path, item, "a map");
    return s;
  }
  d.text(item, "name", path + ".name", s.name);
  d.text(item, "type", path + ".type", s.type);
  if (const json* policies = d.array(item, "policies", path + ".policies")) {
    for (std::size_t j = 0; j < policies->size(); ++j) {
      const json& p = (*policies)[j];
      const std::string ppath = path + ".policies[" + std::to_string(j) + "]";
      PolicySpec spec;
      if (p.is_object()) {
        d.text(p, "name", ppath + ".name", spec.name);
        long long weight = 0;
        d.integer(p, "weight", ppath + ".weight", weight);
        spec.weight = static_cast<int>(weight);
        d.arguments(p, ppath + ".arguments", spec.arguments);
      } else if (!p.is_null()) {
        d.fail(ppath, p, "a map");
      }
      s.policies.push_back(std::move(spec));
    }
  }
  d.arguments(item, path + ".arguments", s.arguments);
  d.number(item, "cpuUtilizationMin", path + ".cpuUtilizationMin", s.cpu_utilization_min);
  d.number(item, "cpuUtilizationMax", path + ".cpuUtilizationMax", s.cpu_utilization_max);
  d.boolean(item, "preferWarmupNodes", path + ".preferWarmupNodes", s.prefer_warmup_nodes);
  d.integer(item, "minNodes", path + ".minNodes", s.min_nodes);
  d.integer(item, "maxNodes", path + ".maxNodes", s.max_nodes);
  return s;
}

// Go's "inf"/"-inf" shortcuts, then strconv.ParseFloat.
api::Expected<double> parse_utilization(std::string_view s) {
  if (s == "inf" || s == "infinity") return 1.0;
  if (s == "-inf" || s == "-infinity") return 0.0;
  return go::parse_float(s);
}

std::vector<std::string> split_colons(std::string_view s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(':', start);
    out.emplace_back(s.substr(start, at == std::string_view::npos ? s.npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

bool has_policy(const std::vector<PolicySpec>& policies, std::string_view name) {
  for (const auto& p : policies) {
    if (p.name == name) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> default_flag_configs() {
  return {"volcano:volcano:0.0:0.6:false:2:100", "agent-scheduler:agent:0.7:1.0:true:2:100"};
}

api::Expected<SchedulerSpec> parse_flag_entry(std::string_view entry) {
  const auto parts = split_colons(entry);
  if (parts.size() != 7) {
    return api::Unexpected{"invalid scheduler config format: " + std::string(entry) +
                           ", expected 7 colon-separated parts"};
  }
  const auto bad = [&](const std::string& what, const std::string& why) {
    return api::Unexpected{"failed to parse scheduler config " + std::string(entry) + ": invalid " +
                           what + ": " + why};
  };
  auto min_util = parse_utilization(parts[2]);
  if (!min_util) return bad("min utilization", min_util.error());
  auto max_util = parse_utilization(parts[3]);
  if (!max_util) return bad("max utilization", max_util.error());
  auto warmup = go::parse_bool(parts[4]);
  if (!warmup) return bad("prefer warmup flag", warmup.error());
  auto min_nodes = go::parse_decimal_int(parts[5]);
  if (!min_nodes) return bad("min nodes", min_nodes.error());
  auto max_nodes = go::parse_decimal_int(parts[6]);
  if (!max_nodes) return bad("max nodes", max_nodes.error());

  SchedulerSpec s;
  s.name = parts[0];
  s.type = parts[1];
  PolicyArgs args{{"minCPUUtil", PolicyArg::of_number(*min_util)},
                  {"maxCPUUtil", PolicyArg::of_number(*max_util)}};
  s.arguments = args;
  s.policies.push_back({.name = kAllocationRate, .weight = 1, .arguments = std::move(args)});
  s.cpu_utilization_min = *min_util;
  s.cpu_utilization_max = *max_util;
  s.prefer_warmup_nodes = *warmup;
  s.min_nodes = *min_nodes;
  s.max_nodes = *max_nodes;
  return s;
}

api::Expected<std::vector<SchedulerSpec>> parse_flag_configs(const std::vector<std::string>& raw) {
  std::vector<SchedulerSpec> out;
  for (const auto& entry : raw) {
    auto s = parse_flag_entry(entry);
    if (!s) return api::Unexpected{s.error()};
    out.push_back(std::move(*s));
  }
  return out;
}

std::vector<SchedulerSpec> flag_scheduler_specs(const std::vector<std::string>& raw,
                                                std::string* error) {
  auto specs = parse_flag_configs(raw);
  if (specs) return std::move(*specs);
  if (error != nullptr) *error = specs.error();
  return *parse_flag_configs(default_flag_configs());
}

api::Expected<FileConfig> parse_sharding_yaml(std::string_view text) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return api::Unexpected{std::string("failed to unmarshal sharding config: ") + e.what()};
  }
  auto doc = to_json(root, "");
  if (!doc) return api::Unexpected{"failed to unmarshal sharding config: " + doc.error()};
  FileConfig cfg;
  Decoder d;
  if (!doc->is_null() && !doc->is_object()) {
    d.fail("sharding.yaml", *doc, "a map");
  } else if (doc->is_object()) {
    if (const json* list = d.array(*doc, "schedulerConfigs", "schedulerConfigs")) {
      for (std::size_t i = 0; i < list->size(); ++i) {
        cfg.schedulers.push_back(
            decode_scheduler((*list)[i], "schedulerConfigs[" + std::to_string(i) + "]", d));
      }
    }
    d.text(*doc, "shardSyncPeriod", "shardSyncPeriod", cfg.shard_sync_period);
    if (const json* v = member(*doc, "enableNodeEventTrigger"); v != nullptr && !v->is_null()) {
      bool b = false;
      d.boolean(*doc, "enableNodeEventTrigger", "enableNodeEventTrigger", b);
      cfg.enable_node_event_trigger = b;
    }
  }
  if (!d.error.empty()) return api::Unexpected{"failed to unmarshal sharding config: " + d.error};
  if (cfg.schedulers.empty()) {
    return api::Unexpected{"sharding config must contain at least one schedulerConfig entry"};
  }
  for (std::size_t i = 0; i < cfg.schedulers.size(); ++i) {
    const SchedulerSpec& s = cfg.schedulers[i];
    const std::string at = "schedulerConfigs[" + std::to_string(i) + "]";
    if (s.name.empty()) return api::Unexpected{at + ": name must not be empty"};
    const std::string who = at + " (" + s.name + "): ";
    if (s.cpu_utilization_min < 0 || s.cpu_utilization_min > 1) {
      return api::Unexpected{who + "cpuUtilizationMin " + fixed2(s.cpu_utilization_min) +
                             " out of range [0,1]"};
    }
    if (s.cpu_utilization_max < 0 || s.cpu_utilization_max > 1) {
      return api::Unexpected{who + "cpuUtilizationMax " + fixed2(s.cpu_utilization_max) +
                             " out of range [0,1]"};
    }
    if (s.cpu_utilization_min > s.cpu_utilization_max) {
      return api::Unexpected{who + "cpuUtilizationMin (" + fixed2(s.cpu_utilization_min) +
                             ") must be <= cpuUtilizationMax (" + fixed2(s.cpu_utilization_max) +
                             ")"};
    }
    if (s.min_nodes < 0) return api::Unexpected{who + "minNodes must be >= 0"};
    if (s.max_nodes < s.min_nodes) {
      return api::Unexpected{who + "maxNodes (" + std::to_string(s.max_nodes) +
                             ") must be >= minNodes (" + std::to_string(s.min_nodes) + ")"};
    }
    if (auto e = validate_policies(i, s); !e.empty()) return api::Unexpected{e};
  }
  return cfg;
}

std::string validate_policies(std::size_t index, const SchedulerSpec& spec) {
  const std::string at = "schedulerConfigs[" + std::to_string(index) + "] (" + spec.name + "): ";
  for (std::size_t j = 0; j < spec.policies.size(); ++j) {
    const PolicySpec& p = spec.policies[j];
    const std::string pol = "policies[" + std::to_string(j) + "]";
    if (p.name.empty()) return at + pol + ".name must not be empty";
    if (p.weight < 0) {
      return at + pol + " (" + p.name + "): weight must be >= 0 (omit for default of 1)";
    }
    if (p.name == kNodeLimit) continue;
    for (const char* key : {"minNodes", "maxNodes"}) {
      if (p.arguments.contains(key)) {
        return at + pol + " (" + p.name + "): " + key +
               " is only supported by the node-limit policy";
      }
    }
  }
  return "";
}

std::vector<PolicySpec> effective_policies(const SchedulerSpec& spec) {
  std::vector<PolicySpec> out = spec.policies;
  if (out.empty()) {
    PolicyArgs args = spec.arguments;
    if (args.empty()) {
      args = {{"minCPUUtil", PolicyArg::of_number(spec.cpu_utilization_min)},
              {"maxCPUUtil", PolicyArg::of_number(spec.cpu_utilization_max)}};
    }
    out.push_back({.name = kAllocationRate, .weight = 1, .arguments = std::move(args)});
    if (spec.prefer_warmup_nodes) out.push_back({.name = kWarmup, .weight = 1, .arguments = {}});
  }
  if ((spec.min_nodes > 0 || spec.max_nodes > 0) && !has_policy(out, kNodeLimit)) {
    out.push_back({.name = kNodeLimit,
                   .weight = 0,
                   .arguments = {{"minNodes", PolicyArg::of_number(double(spec.min_nodes))},
                                 {"maxNodes", PolicyArg::of_number(double(spec.max_nodes))}}});
  }
  for (PolicySpec& p : out) {
    if (p.weight == 0) p.weight = 1;
  }
  return out;
}

}  // namespace vc::controllers::sharding
