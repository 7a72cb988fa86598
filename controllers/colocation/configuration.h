#pragma once
// The settings a ColocationConfiguration stamps onto its pods (spec controller-manager.md §5.6):
// Go's config/v1alpha1 Configuration, i.e. the spec without the selector. Its JSON form is the
// value of the pod annotation volcano.sh/colocation-config, written as Go's json.Marshal writes
// it and compared after decoding as Go's json.Unmarshal decodes it, so a stamped pod is
// recognised whatever wrote it.
//
// Threads: plain values and pure functions.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace vc::controllers::colocation {

// The two pod annotations (spec controller-manager.md §5.6 "Keys").
inline constexpr std::string_view kConfigNameAnnotation = "volcano.sh/colocation-config-name";
inline constexpr std::string_view kConfigAnnotation = "volcano.sh/colocation-config";
// volcano.sh/colocation-config of a pod that no configuration selects any more.
inline constexpr std::string_view kResetValue = "{}";

struct MemoryQos {
  std::int64_t high_ratio = 0;
  std::int64_t low_ratio = 0;
  std::int64_t min_ratio = 0;

  bool operator==(const MemoryQos&) const = default;
};

struct Configuration {
  std::optional<MemoryQos> memory_qos;  // Go's *MemoryQos: absent differs from all zeros

  bool operator==(const Configuration&) const = default;
};

// json.Marshal: "{}", or {"memoryQos":{...}} with highRatio, lowRatio, minRatio in that order
// and the zero ones left out (omitempty).
std::string encode_configuration(const Configuration& configuration);

// json.Unmarshal into a Configuration, or nullopt where Go returns an error (bad syntax, a value
// of the wrong type, a non-integer ratio). Member names match ASCII-case-insensitively, unknown
// members are ignored, null leaves a field as it is (a null memoryQos clears it).
std::optional<Configuration> decode_configuration(std::string_view text);

// The configuration of a ColocationConfiguration's spec as the API server stored it (the CRD has
// typed and defaulted it). Throws std::invalid_argument naming the field on a mistyped member.
Configuration configuration_from_spec(const nlohmann::json& spec);

}  // namespace vc::controllers::colocation
