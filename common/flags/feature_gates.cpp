#include "common/flags/feature_gates.h"

#include <stdexcept>

#include "common/go/strconv.h"

namespace vc::flags {
namespace {

constexpr std::string_view kAllAlpha = "AllAlpha";
constexpr std::string_view kAllBeta = "AllBeta";

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\n\v\f\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\n\v\f\r");
  return s.substr(first, last - first + 1);
}

}  // namespace

FeatureGates::FeatureGates(std::vector<FeatureSpec> known) {
  for (auto& spec : known) {
    std::string name = spec.name;
    known_.emplace(std::move(name), std::move(spec));
  }
}

api::Status FeatureGates::set(std::string_view value) {
  std::map<std::string, bool, std::less<>> parsed;
  size_t start = 0;
  while (start <= value.size()) {
    const size_t comma = std::min(value.find(',', start), value.size());
    const std::string_view pair = value.substr(start, comma - start);
    start = comma + 1;
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    const std::string key(trim(pair.substr(0, eq)));
    if (eq == std::string_view::npos) return api::Unexpected{"missing bool value for " + key};
    const std::string_view text = trim(pair.substr(eq + 1));
    auto v = go::parse_bool(text);
    if (!v)
      return api::Unexpected{"invalid value of " + key + "=" + std::string(text) +
                             ", err: " + v.error()};
    parsed[key] = *v;
  }
  for (const auto& [key, _] : parsed) {
    if (key != kAllAlpha && key != kAllBeta && !known_.contains(key) && !is_kubernetes_gate(key)) {
      return api::Unexpected{"unrecognized feature gate: " + key};
    }
  }
  for (const auto& [key, v] : parsed) set_[key] = v;
  return api::ok_status();
}

std::string FeatureGates::str() const {
  std::string out;
  for (const auto& [key, v] : set_) {
    if (!out.empty()) out += ',';
    out += key + (v ? "=true" : "=false");
  }
  return out;
}

bool FeatureGates::enabled(std::string_view name) const {
  auto spec = known_.find(name);
  if (spec == known_.end()) {
    throw std::logic_error("feature gate " + std::string(name) + " is not registered");
  }
  if (auto it = set_.find(name); it != set_.end()) return it->second;
  const std::string_view all = spec->second.stage == Stage::Alpha  ? kAllAlpha
                               : spec->second.stage == Stage::Beta ? kAllBeta
                                                                   : std::string_view{};
  if (!all.empty()) {
    if (auto it = set_.find(all); it != set_.end()) return it->second;
  }
  return spec->second.default_enabled;
}

bool FeatureGates::explicitly_set(std::string_view name) const {
  return set_.contains(name);
}

void FeatureGates::set_default(std::string_view name, bool enabled, Stage stage) {
  auto spec = known_.find(name);
  if (spec == known_.end()) {
    throw std::logic_error("feature gate " + std::string(name) + " is not registered");
  }
  spec->second.default_enabled = enabled;
  spec->second.stage = stage;
}

std::vector<FeatureSpec> volcano_feature_gates() {
  return {
      {"WorkLoadSupport", true, Stage::Alpha},
      {"VolcanoJobSupport", true, Stage::Alpha},
      {"PodDisruptionBudgetsSupport", true, Stage::Alpha},
      {"QueueCommandSync", true, Stage::Alpha},
      {"PriorityClass", true, Stage::Alpha},
      {"CSIStorage", false, Stage::Alpha},
      {"ResourceTopology", true, Stage::Alpha},
      {"CronVolcanoJobSupport", true, Stage::Alpha},
      {"SchedulingGatesQueueAdmission", false, Stage::Alpha},
  };
}

std::unique_ptr<Value> FeatureGates::flag_value() {
  return std::make_unique<FuncValue>(
      "mapStringBool", [this](std::string_view text) { return set(text); },
      [this] { return str(); });
}

}  // namespace vc::flags
