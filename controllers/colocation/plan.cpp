#include "controllers/colocation/plan.h"

namespace vc::controllers::colocation {

namespace {

// Newer first; a missing creation time counts as the oldest (Go's zero time).
bool newer(const ColocationConfigView& a, const ColocationConfigView& b) {
  const api::TimePoint ta = a.creation_timestamp.value_or(api::TimePoint::min());
  const api::TimePoint tb = b.creation_timestamp.value_or(api::TimePoint::min());
  if (ta != tb) return ta > tb;
  return a.name < b.name;
}

// Whether the stamped value decodes to the configuration (spec controller-manager.md §5.6
// step 3: Go compares decoded values, not text).
bool carries(const PodAnnotations& current, const ColocationConfigView& config) {
  if (current.config_name != config.name || !current.config) return false;
  const auto decoded = decode_configuration(*current.config);
  return decoded && *decoded == config.configuration;
}

}  // namespace

const ColocationConfigView* governing_configuration(
    const kube::cache::Labels& pod_labels,
    const std::vector<const ColocationConfigView*>& namespace_configs) {
  const ColocationConfigView* best = nullptr;
  for (const ColocationConfigView* config : namespace_configs) {
    if (!config->selects(pod_labels)) continue;
    if (best == nullptr || newer(*config, *best)) best = config;
  }
  return best;
}

std::optional<AnnotationChange> plan_pod(const PodAnnotations& current,
                                         const ColocationConfigView* governing) {
  if (governing != nullptr) {
    if (carries(current, *governing)) return std::nullopt;
    return AnnotationChange{.config_name = governing->name,
                            .config = encode_configuration(governing->configuration)};
  }
  // Reset (step 4): the configuration key stays, as the marker that the pod was managed.
  if (!current.config_name && !current.config) return std::nullopt;
  if (!current.config_name && current.config == kResetValue) return std::nullopt;
  return AnnotationChange{.config_name = std::nullopt, .config = std::string(kResetValue)};
}

}  // namespace vc::controllers::colocation
