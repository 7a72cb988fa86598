#include "controllers/views/pod_resources.h"

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vc::controllers::views {

namespace {

using nlohmann::json;

constexpr std::string_view kRequestsPrefix = "requests.";
constexpr std::string_view kLimitsPrefix = "limits.";
constexpr std::string_view kHugePagesPrefix = "hugepages-";

// Kubernetes' IsNativeResource: no domain, or a kubernetes.io domain.
bool is_native(std::string_view name) {
  return name.find('/') == std::string_view::npos ||
         name.find("kubernetes.io/") != std::string_view::npos;
}

// Kubernetes' IsExtendedResourceName for names the API server already validated.
bool is_extended(std::string_view name) {
  return !is_native(name) && !name.starts_with(kRequestsPrefix);
}

// resources.requests or resources.limits of a container (or a pod's spec.resources) as a list.
api::ResourceList read_list(const json& holder, const char* field) {
  api::ResourceList out;
  auto res = holder.find("resources");
  if (res == holder.end() || !res->is_object()) return out;
  auto list = res->find(field);
  if (list == res->end() || !list->is_object()) return out;
  for (const auto& [name, value] : list->items()) {
    auto q = api::quantity_from_json(value);
    if (!q)
      throw std::invalid_argument("resources." + std::string(field) + "[" + name +
                                  "]: " + q.error());
    out.emplace(name, std::move(*q));
  }
  return out;
}

// Kubernetes' maxResourceList: a copy of the larger value per name.
void max_into(api::ResourceList& into, const api::ResourceList& other) {
  for (const auto& [name, q] : other) {
    auto it = into.find(name);
    if (it == into.end()) {
      into.emplace(name, q);
    } else if (q.compare(it->second) > 0) {
      it->second = q;
    }
  }
}

bool is_sidecar(const json& container) {
  auto it = container.find("restartPolicy");
  return it != container.end() && it->is_string() && it->get<std::string>() == "Always";
}

const json& array_at(const json& spec, const char* key) {
  static const json kEmpty = json::array();
  auto it = spec.find(key);
  return it != spec.end() && it->is_array() ? *it : kEmpty;
}

// The aggregate over containers for field "requests" or "limits".
api::ResourceList aggregate(const json& spec, const char* field) {
  api::ResourceList total;
  for (const json& c : array_at(spec, "containers")) api::add_to(total, read_list(c, field));

  api::ResourceList sidecars;  // running sidecars so far
  api::ResourceList init_peak;
  for (const json& c : array_at(spec, "initContainers")) {
    api::ResourceList own = read_list(c, field);
    if (is_sidecar(c)) {
      api::add_to(total, own);
      api::add_to(sidecars, own);
      max_into(init_peak, sidecars);
    } else {
      api::ResourceList with_sidecars;
      api::add_to(with_sidecars, own);
      api::add_to(with_sidecars, sidecars);
      max_into(init_peak, with_sidecars);
    }
  }
  max_into(total, init_peak);
  return total;
}

// Pod-level resources (spec.resources) replace the container totals for cpu and memory.
void apply_pod_level(api::ResourceList& total, const json& spec, const char* field) {
  for (auto& [name, q] : read_list(spec, field)) {
    if (name == "cpu" || name == "memory") total[name] = q;
  }
}

api::ResourceList overhead(const json& spec) {
  api::ResourceList out;
  auto it = spec.find("overhead");
  if (it == spec.end() || !it->is_object()) return out;
  for (const auto& [name, value] : it->items()) {
    auto q = api::quantity_from_json(value);
    if (!q) throw std::invalid_argument("overhead[" + name + "]: " + q.error());
    out.emplace(name, std::move(*q));
  }
  return out;
}

}  // namespace

api::ResourceList pod_requests(const json& spec) {
  api::ResourceList total = aggregate(spec, "requests");
  apply_pod_level(total, spec, "requests");
  api::add_to(total, overhead(spec));
  return total;
}

api::ResourceList pod_limits(const json& spec) {
  api::ResourceList total = aggregate(spec, "limits");
  apply_pod_level(total, spec, "limits");
  for (const auto& [name, q] : overhead(spec)) {
    if (auto it = total.find(name); it != total.end()) it->second += q;
  }
  return total;
}

api::ResourceList quota_pod_usage(const api::ResourceList& requests,
                                  const api::ResourceList& limits) {
  api::ResourceList usage;
  usage.emplace("count/pods", api::Quantity::from_int(1));
  usage.emplace("pods", api::Quantity::from_int(1));
  for (const char* name : {"cpu", "memory", "ephemeral-storage"}) {
    if (auto r = requests.find(name); r != requests.end()) {
      usage[name] = r->second;
      usage[std::string(kRequestsPrefix) + name] = r->second;
    }
    if (auto l = limits.find(name); l != limits.end()) {
      usage[std::string(kLimitsPrefix) + name] = l->second;
    }
  }
  for (const auto& [name, q] : requests) {
    if (name.starts_with(kHugePagesPrefix)) {
      usage[name] = q;
      usage[std::string(kRequestsPrefix) + name] = q;
    }
    if (is_extended(name)) usage[std::string(kRequestsPrefix) + name] = q;
  }
  return usage;
}

void add_unprefixed_requests(api::ResourceList& usage) {
  std::vector<std::pair<std::string, api::Quantity>> unprefixed;
  for (const auto& [name, q] : usage) {
    if (name.starts_with(kRequestsPrefix) && !is_native(name)) {
      unprefixed.emplace_back(name.substr(kRequestsPrefix.size()), q);
    }
  }
  for (auto& [name, q] : unprefixed) usage[name] = std::move(q);
}

}  // namespace vc::controllers::views
