#include "webhook/admission/scheduling/resource.h"

#include <array>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "common/api/label_validation.h"

namespace vc::webhook::scheduling {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// v1helper.IsScalarResourceName.
bool is_scalar_resource_name(std::string_view name) {
  return is_extended_resource_name(name) || starts_with(name, "hugepages-") ||
         contains(name, "kubernetes.io/") || starts_with(name, "attachable-volumes-");
}

// Go's int64(float64) for the values we print; out-of-range values clamp instead of taking the
// platform's undefined conversion result.
std::int64_t to_int64(double v) {
  if (std::isnan(v)) return 0;
  if (v >= 9223372036854775807.0) return INT64_MAX;
  if (v <= -9223372036854775808.0) return INT64_MIN;
  return static_cast<std::int64_t>(v);
}

}  // namespace

bool is_extended_resource_name(std::string_view name) {
  const bool native = !contains(name, "/") || contains(name, "kubernetes.io/");
  if (native || starts_with(name, "requests.")) return false;
  return api::is_qualified_name("requests." + std::string(name)).empty();
}

bool is_integer_resource_name(std::string_view name) {
  static constexpr std::array<std::string_view, 9> kIntegerResources = {"pods",
                                                                        "resourcequotas",
                                                                        "services",
                                                                        "replicationcontrollers",
                                                                        "secrets",
                                                                        "configmaps",
                                                                        "persistentvolumeclaims",
                                                                        "services.nodeports",
                                                                        "services.loadbalancers"};
  for (auto r : kIntegerResources) {
    if (r == name) return true;
  }
  return is_extended_resource_name(name);
}

Resource Resource::from_list(const api::ResourceList& list) {
  Resource r;
  for (const auto& [name, quantity] : list) {
    if (name == "cpu") {
      r.milli_cpu_ += static_cast<double>(quantity.milli_value());
    } else if (name == "memory") {
      r.memory_ += static_cast<double>(quantity.value());
    } else if (name == "pods") {
      r.scalars_[name] += static_cast<double>(quantity.value());
    } else if (name == "ephemeral-storage") {
      r.scalars_[name] += static_cast<double>(quantity.milli_value());
    } else if (!starts_with(name, "count/") && is_scalar_resource_name(name)) {
      r.scalars_[name] += static_cast<double>(quantity.milli_value());
    }
  }
  return r;
}

void Resource::add(const Resource& other) {
  milli_cpu_ += other.milli_cpu_;
  memory_ += other.memory_;
  for (const auto& [name, value] : other.scalars_) scalars_[name] += value;
}

double Resource::get(std::string_view name) const {
  if (name == "cpu") return milli_cpu_;
  if (name == "memory") return memory_;
  auto it = scalars_.find(std::string(name));
  return it == scalars_.end() ? 0 : it->second;
}

std::vector<std::string> Resource::resource_names() const {
  constexpr double kMinResource = 0.1;
  std::vector<std::string> names;
  if (milli_cpu_ >= kMinResource) names.emplace_back("cpu");
  if (memory_ >= kMinResource) names.emplace_back("memory");
  for (const auto& [name, value] : scalars_) {
    if (value >= kMinResource) names.push_back(name);
  }
  return names;
}

bool Resource::less_partly(const Resource& other) const {
  if (milli_cpu_ < other.milli_cpu_ || memory_ < other.memory_) return true;
  for (const auto& [name, _] : other.scalars_) {
    if (!scalars_.contains(name)) return true;
  }
  for (const auto& [name, value] : scalars_) {
    auto it = other.scalars_.find(name);
    if (value < (it == other.scalars_.end() ? 0.0 : it->second)) return true;
  }
  return false;
}

std::string Resource::to_string() const {
  std::string out = fmt::format("cpu {:.2f}, memory {:.2f}", milli_cpu_, memory_);
  for (const auto& [name, value] : scalars_) out += fmt::format(", {} {:.2f}", name, value);
  return out;
}

std::string format_resource_value(std::string_view name, double value) {
  if (name == "cpu") {
    return api::Quantity::from_milli(to_int64(value), api::QuantityFormat::DecimalSI).to_string();
  }
  if (name == "memory") {
    return api::Quantity::from_int(to_int64(value), api::QuantityFormat::BinarySI).to_string();
  }
  return fmt::format("{:.2f}", value);
}

}  // namespace vc::webhook::scheduling
