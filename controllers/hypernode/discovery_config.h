#pragma once
// The network topology discovery configuration: the `volcano-controller.conf` key of Volcano's
// controller ConfigMap, read as Volcano reads it (spec controller-manager.md §5.5.1) — the list
// with gopkg.in/yaml.v2 into typed fields, then each source's free-form `config` by that source:
//   - label: `networkTopologyTypes`, decoded weakly as mapstructure does
//     (spec controller-manager.md §5.5.3);
//   - ufm: `endpoint` (must be a string) and `insecureSkipVerify` (only the bool true)
//     (spec controller-manager.md §5.5.4).
// A problem in the list fails the whole document; a problem in a source's `config` belongs to
// that source (Volcano logs it or, for a missing UFM endpoint, crashes; we keep the error with
// the source so that the other sources still run). Errors name the field and its line:
// `networkTopologyDiscovery[0].interval: cannot read "soon" as a time.Duration (line 4)`.
//
// Threads: plain values and pure functions.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/api/expected.h"

namespace vc::controllers::hypernode {

// Where the ConfigMap is and which key holds the configuration.
inline constexpr const char* kConfigKey = "volcano-controller.conf";
inline constexpr const char* kNamespaceEnv = "KUBE_POD_NAMESPACE";
inline constexpr const char* kReleaseNameEnv = "HELM_RELEASE_NAME";
inline constexpr const char* kDefaultNamespace = "volcano-system";
inline constexpr const char* kDefaultReleaseName = "volcano";
// "<release>-controller-configmap".
std::string config_map_name(std::string_view release_name);

inline constexpr std::chrono::hours kDefaultInterval{1};
// A topology type's name longer than this is skipped.
inline constexpr std::size_t kMaxTopologyTypeName = 20;

struct SecretRef {
  std::string name{};
  std::string namespace_{};
  friend bool operator==(const SecretRef&, const SecretRef&) = default;
};

// One topology type of the label source: its tier label keys, tier 1 first (the type's list
// reversed, without its last entry).
struct TopologyType {
  std::string name{};
  std::vector<std::string> tier_labels{};
  friend bool operator==(const TopologyType&, const TopologyType&) = default;
};

struct LabelSettings {
  std::vector<TopologyType> types{};  // sorted by name
  // Types skipped (too long a name, a repeated label), one message each; the source runs with
  // the others.
  std::vector<std::string> skipped{};
  // networkTopologyTypes could not be decoded: the source runs with no types at all.
  std::string error{};
};

struct UfmSettings {
  std::string endpoint{};
  bool insecure_skip_verify = false;
  // config.endpoint missing or not a string: the source cannot start.
  std::string error{};
};

struct DiscoverySource {
  std::string source{};
  bool enabled = false;
  std::chrono::nanoseconds interval{0};   // as written; see effective_interval
  std::optional<SecretRef> secret_ref{};  // credentials.secretRef
  LabelSettings label{};                  // filled when source is "label"
  UfmSettings ufm{};                      // filled when source is "ufm"

  // The period between discoveries: the default when unset, zero or negative.
  std::chrono::nanoseconds effective_interval() const;
};

struct NetworkTopologyConfig {
  std::vector<DiscoverySource> sources{};  // in document order

  // The first enabled entry for the source, or null.
  const DiscoverySource* enabled(std::string_view source) const;
  // The enabled entries' sources, in document order (repeats included, as Volcano lists them).
  std::vector<std::string> enabled_sources() const;
};

// Parses the key's text; an empty document is an empty configuration.
api::Expected<NetworkTopologyConfig> parse_discovery_config(std::string_view yaml);

}  // namespace vc::controllers::hypernode
