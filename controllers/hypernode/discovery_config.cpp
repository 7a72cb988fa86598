#include "controllers/hypernode/discovery_config.h"

#include <algorithm>
#include <map>
#include <set>

#include <yaml-cpp/yaml.h>

#include "common/go/strconv.h"
#include "common/go/yaml_fields.h"
#include "common/go/yaml_scalar.h"
#include "controllers/hypernode/desired.h"

namespace vc::controllers::hypernode {
namespace {

using Kind = go::ResolvedScalar::Kind;

using go::yaml_absent;
using go::yaml_child;
using go::yaml_kind_name;
using go::yaml_resolve;

// Reads nodes into typed values; the first problem found is kept.
class Reader : public go::YamlFieldReader {
 public:
  // mapstructure's weak decoding into a string: text as it is, numbers in decimal, booleans as
  // "1" and "0", null as "".
  std::string weak_text(const YAML::Node& n, const std::string& path) {
    if (yaml_absent(n)) return {};
    if (!n.IsScalar()) {
      fail(n, path, std::string("expected a string, got a ") + yaml_kind_name(n));
      return {};
    }
    const go::ResolvedScalar r = yaml_resolve(n);
    switch (r.kind) {
      case Kind::Bool:
        return r.boolean ? "1" : "0";
      case Kind::Int:
        return std::to_string(r.integer);
      case Kind::Uint:
        return std::to_string(r.unsigned_integer);
      case Kind::Float:
        return go::format_float(r.floating, 'f', 64);
      case Kind::Null:
        return {};
      case Kind::String:
        break;
    }
    return n.Scalar();
  }
};

// One topology type's list, weakly: a single mapping stands for a list of one; each entry's
// nodeLabel (matched ignoring case) as weak text.
std::vector<std::string> type_labels(Reader& r, const YAML::Node& list, const std::string& path) {
  std::vector<std::string> labels;
  if (yaml_absent(list)) return labels;
  auto entry = [&](const YAML::Node& e, const std::string& at) {
    if (!r.map_or_null(e, at)) return;
    labels.push_back(r.weak_text(yaml_child(e, "nodeLabel", true), at + ".nodeLabel"));
  };
  if (list.IsMap()) {
    entry(list, path);
  } else if (r.sequence_or_null(list, path)) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      entry(list[i], path + "[" + std::to_string(i) + "]");
    }
  }
  return labels;
}

// The mapping of topology types; mapstructure also merges a sequence of mappings into one.
std::map<std::string, YAML::Node> type_entries(Reader& r, const YAML::Node& types,
                                               const std::string& path) {
  std::map<std::string, YAML::Node> out;
  auto merge = [&](const YAML::Node& m, const std::string& at) {
    for (const auto& e : m) out[r.weak_text(e.first, at)] = e.second;
  };
  if (yaml_absent(types)) return out;
  if (types.IsMap()) {
    merge(types, path);
  } else if (r.sequence_or_null(types, path)) {
    for (std::size_t i = 0; i < types.size(); ++i) {
      const std::string at = path + "[" + std::to_string(i) + "]";
      if (types[i].IsMap()) {
        merge(types[i], at);
      } else if (!r.map_or_null(types[i], at)) {
        break;
      }
    }
  }
  return out;
}

LabelSettings label_settings(const YAML::Node& config, const std::string& path) {
  LabelSettings out;
  Reader r;
  const std::string types_path = path + ".networkTopologyTypes";
  std::vector<TopologyType> types;
  std::vector<std::string> skipped;
  for (const auto& [name, list] :
       type_entries(r, yaml_child(config, "networkTopologyTypes", true), types_path)) {
    const std::string at = types_path + "." + name;
    std::vector<std::string> labels = type_labels(r, list, at);
    if (name.size() > kMaxTopologyTypeName) {
      skipped.push_back(at + ": the name is longer than " + std::to_string(kMaxTopologyTypeName) +
                        " characters");
      continue;
    }
    std::set<std::string> seen;
    if (!std::all_of(labels.begin(), labels.end(),
                     [&](const std::string& l) { return seen.insert(l).second; })) {
      skipped.push_back(at + ": a nodeLabel appears twice");
      continue;
    }
    // The last entry stands for the node itself; the others are tiers, the lowest first.
    TopologyType type{.name = name};
    for (std::size_t i = labels.size(); i-- > 1;) type.tier_labels.push_back(labels[i - 1]);
    types.push_back(std::move(type));
  }
  if (!r.error().empty()) {
    out.error = r.error();
    return out;
  }
  out.types = std::move(types);
  out.skipped = std::move(skipped);
  return out;
}

UfmSettings ufm_settings(const YAML::Node& config, const std::string& path) {
  UfmSettings out;
  // Volcano asserts the Go type: only a YAML string is an endpoint, only the bool true skips
  // verification.
  const YAML::Node endpoint = yaml_child(config, "endpoint");
  if (endpoint.IsDefined() && endpoint.IsScalar() && !endpoint.IsNull() &&
      yaml_resolve(endpoint).kind == Kind::String) {
    out.endpoint = endpoint.Scalar();
  } else {
    out.error = path + ".endpoint: must be a string";
    if (endpoint.IsDefined() && endpoint.Mark().line >= 0) {
      out.error += " (line " + std::to_string(endpoint.Mark().line + 1) + ")";
    }
  }
  const YAML::Node skip = yaml_child(config, "insecureSkipVerify");
  if (skip.IsDefined() && skip.IsScalar() && !skip.IsNull()) {
    const go::ResolvedScalar s = yaml_resolve(skip);
    out.insecure_skip_verify = s.kind == Kind::Bool && s.boolean;
  }
  return out;
}

DiscoverySource discovery_source(Reader& r, const YAML::Node& n, const std::string& path) {
  DiscoverySource s;
  if (!r.map_or_null(n, path)) return s;
  s.source = r.text(yaml_child(n, "source"), path + ".source");
  s.enabled = r.boolean(yaml_child(n, "enabled"), path + ".enabled");
  s.interval = r.duration(yaml_child(n, "interval"), path + ".interval");
  const YAML::Node credentials = yaml_child(n, "credentials");
  if (r.map_or_null(credentials, path + ".credentials")) {
    const YAML::Node ref = yaml_child(credentials, "secretRef");
    const std::string at = path + ".credentials.secretRef";
    if (r.map_or_null(ref, at) && !yaml_absent(ref)) {
      s.secret_ref =
          SecretRef{.name = r.text(yaml_child(ref, "name"), at + ".name"),
                    .namespace_ = r.text(yaml_child(ref, "namespace"), at + ".namespace")};
    }
  }
  const YAML::Node config = yaml_child(n, "config");
  if (!r.map_or_null(config, path + ".config")) return s;
  if (s.source == source::kLabel) s.label = label_settings(config, path + ".config");
  if (s.source == source::kUfm) s.ufm = ufm_settings(config, path + ".config");
  return s;
}

}  // namespace

std::string config_map_name(std::string_view release_name) {
  return std::string(release_name) + "-controller-configmap";
}

std::chrono::nanoseconds DiscoverySource::effective_interval() const {
  if (interval <= std::chrono::nanoseconds::zero()) return kDefaultInterval;
  return interval;
}

const DiscoverySource* NetworkTopologyConfig::enabled(std::string_view name) const {
  for (const auto& s : sources) {
    if (s.enabled && s.source == name) return &s;
  }
  return nullptr;
}

std::vector<std::string> NetworkTopologyConfig::enabled_sources() const {
  std::vector<std::string> out;
  for (const auto& s : sources) {
    if (s.enabled) out.push_back(s.source);
  }
  return out;
}

api::Expected<NetworkTopologyConfig> parse_discovery_config(std::string_view yaml) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return api::Unexpected{std::string("failed to parse config: ") + e.what()};
  }
  NetworkTopologyConfig config;
  Reader r;
  if (r.map_or_null(root, "the discovery configuration")) {
    const YAML::Node list = yaml_child(root, "networkTopologyDiscovery");
    if (r.sequence_or_null(list, "networkTopologyDiscovery")) {
      for (std::size_t i = 0; i < list.size() && r.error().empty(); ++i) {
        config.sources.push_back(
            discovery_source(r, list[i], "networkTopologyDiscovery[" + std::to_string(i) + "]"));
      }
    }
  }
  if (!r.error().empty()) return api::Unexpected{"failed to parse config: " + r.error()};
  return config;
}

}  // namespace vc::controllers::hypernode
