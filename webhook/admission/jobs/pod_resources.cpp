// Resource checks of the pod-template validation (Kubernetes validateResourceRequirements,
// resource-name rules of pkg/apis/core/helper, and the PodLevelResources consistency check).

#include <map>
#include <set>
#include <string>

#include "common/api/label_validation.h"
#include "common/api/quantity.h"
#include "webhook/admission/jobs/job_view.h"
#include "webhook/admission/jobs/pod_validation_internal.h"

namespace vc::webhook::jobs::detail {
namespace {

using Resources = std::map<std::string, api::Quantity>;

bool starts_with(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

using NameSet = std::set<std::string, std::less<>>;

// Kubernetes' integer resources (object counts of a quota): part of the standard set too.
const NameSet& integer_resources() {
  static const NameSet kSet{"pods",
                            "services",
                            "replicationcontrollers",
                            "resourcequotas",
                            "secrets",
                            "configmaps",
                            "persistentvolumeclaims",
                            "services.nodeports",
                            "services.loadbalancers"};
  return kSet;
}

const NameSet& standard_resources() {
  static const NameSet kSet = [] {
    NameSet names{"cpu",          "memory",          "ephemeral-storage",
                  "requests.cpu", "requests.memory", "requests.ephemeral-storage",
                  "limits.cpu",   "limits.memory",   "limits.ephemeral-storage",
                  "storage",      "requests.storage"};
    names.insert(integer_resources().begin(), integer_resources().end());
    return names;
  }();
  return kSet;
}

bool is_hugepages(const std::string& name) {
  return starts_with(name, "hugepages-");
}

bool is_native(const std::string& name) {
  return name.find('/') == std::string::npos || name.find("kubernetes.io/") != std::string::npos;
}

bool is_extended(const std::string& name) {
  if (is_native(name) || starts_with(name, "requests.")) return false;
  return api::is_qualified_name("requests." + name).empty();
}

bool is_integer_resource(const std::string& name) {
  return integer_resources().count(name) > 0 || is_extended(name);
}

bool overcommit_allowed(const std::string& name) {
  return is_native(name) && !is_hugepages(name);
}

// validateResourceName followed by the container or pod-level specific rules.
void validate_resource_name(const std::string& name, bool pod_level, const FieldPath& path,
                            FieldErrorList& errs) {
  // Built only for an error: most names are fine, and the value is a JSON encoding.
  const auto value = [&name] { return BadValue::json_value(name); };
  const auto problems = api::is_qualified_name(name);
  const bool unprefixed = name.find('/') == std::string::npos;
  bool base_failed = !problems.empty();
  for (const auto& m : problems) errs.add(invalid(path, value(), m));
  if (!base_failed && unprefixed && !standard_resources().count(name) && !is_hugepages(name) &&
      !starts_with(name, "requests.hugepages-")) {
    errs.add(invalid(path, value(), "must be a standard resource type or fully qualified"));
    base_failed = true;
  }
  if (pod_level) {
    if (!base_failed && name != "cpu" && name != "memory" && !is_hugepages(name)) {
      errs.add(not_supported(path, value(), {"cpu", "hugepages-", "memory"}));
    }
    return;
  }
  if (unprefixed) {
    if (name != "cpu" && name != "memory" && name != "ephemeral-storage" && !is_hugepages(name)) {
      errs.add(invalid(path, value(), "must be a standard resource for containers"));
    }
  } else if (!is_native(name) && !is_extended(name)) {
    errs.add(invalid(path, value(), "doesn't follow extended resource name standard"));
  }
}

void validate_quantity(const std::string& name, const api::Quantity& q, const FieldPath& path,
                       FieldErrorList& errs) {
  if (q.sign() < 0) {
    errs.add(invalid(path, BadValue::str(q.to_string()), "must be greater than or equal to 0"));
  }
  if (is_integer_resource(name) && q.milli_value() % 1000 != 0) {
    errs.add(invalid(path, BadValue::json_value(q.to_string()), "must be an integer"));
  }
  if (is_hugepages(name)) {
    auto page = api::Quantity::parse(name.substr(std::string_view("hugepages-").size()));
    const bool divisible = page && page->sign() > 0 && page->milli_value() % 1000 == 0 &&
                           q.value() % page->value() == 0;
    if (!divisible) {
      errs.add(invalid(path, BadValue::str(q.to_string()),
                       q.to_string() + " is not positive integer multiple of " + name));
    }
  }
}

Resources resources_at(const json& requirements, const char* key) {
  Resources out;
  const json& list = child_at(requirements, key);
  if (!list.is_object()) return out;
  for (const auto& [name, value] : list.items()) {
    auto q = api::quantity_from_json(value);
    out[name] = q ? *q : api::Quantity();
  }
  return out;
}

// Adds b into a; the first addition keeps b's printed form as Kubernetes' DeepCopy does.
void add_into(Resources& a, const Resources& b) {
  for (const auto& [name, q] : b) {
    auto it = a.find(name);
    if (it == a.end()) {
      a.emplace(name, q);
    } else {
      it->second += q;
    }
  }
}

void max_into(Resources& a, const Resources& b) {
  for (const auto& [name, q] : b) {
    auto it = a.find(name);
    if (it == a.end()) {
      a.emplace(name, q);
    } else if (q > it->second) {
      it->second = q;
    }
  }
}

}  // namespace

void validate_resource_requirements(const json& requirements, bool pod_level, const FieldPath& path,
                                    FieldErrorList& errs) {
  const FieldPath limits_path = path.child("limits");
  const FieldPath requests_path = path.child("requests");
  const Resources limits = resources_at(requirements, "limits");
  const Resources requests = resources_at(requirements, "requests");
  bool cpu_or_memory = false;
  bool hugepages = false;
  for (const auto& [name, q] : limits) {
    const FieldPath p = limits_path.key(name);
    validate_resource_name(name, pod_level, p, errs);
    validate_quantity(name, q, p, errs);
    hugepages |= is_hugepages(name);
    cpu_or_memory |= name == "cpu" || name == "memory";
  }
  for (const auto& [name, q] : requests) {
    const FieldPath p = requests_path.key(name);
    validate_resource_name(name, pod_level, p, errs);
    validate_quantity(name, q, p, errs);
    auto limit = limits.find(name);
    if (limit != limits.end()) {
      if (q != limit->second && !overcommit_allowed(name)) {
        errs.add(invalid(requests_path, BadValue::str(q.to_string()),
                         "must be equal to " + name + " limit of " + limit->second.to_string()));
      } else if (q > limit->second) {
        errs.add(invalid(
            requests_path, BadValue::str(q.to_string()),
            "must be less than or equal to " + name + " limit of " + limit->second.to_string()));
      }
    } else if (!overcommit_allowed(name)) {
      errs.add(required(limits_path, "Limit must be set for non overcommitable resources"));
    }
    hugepages |= is_hugepages(name);
    cpu_or_memory |= name == "cpu" || name == "memory";
  }
  if (!cpu_or_memory && hugepages) errs.add(forbidden(path, "HugePages require cpu or memory"));
}

void validate_pod_resource_consistency(const json& spec, const FieldPath& path,
                                       FieldErrorList& errs) {
  // AggregateContainerRequests: regular containers plus restartable init containers, or the
  // largest init-container step if that is bigger.
  Resources total;
  const json& containers = child_at(spec, "containers");
  if (containers.is_array()) {
    for (const auto& c : containers)
      add_into(total, resources_at(child_at(c, "resources"), "requests"));
  }
  Resources sidecars;
  Resources init_peak;
  const json& inits = child_at(spec, "initContainers");
  if (inits.is_array()) {
    for (const auto& c : inits) {
      const Resources requests = resources_at(child_at(c, "resources"), "requests");
      if (str_at(c, "restartPolicy") == "Always") {
        add_into(total, requests);
        add_into(sidecars, requests);
        max_into(init_peak, sidecars);
      } else {
        Resources step;
        add_into(step, requests);
        add_into(step, sidecars);
        max_into(init_peak, step);
      }
    }
  }
  max_into(total, init_peak);

  const json& pod = child_at(spec, "resources");
  const Resources pod_requests = resources_at(pod, "requests");
  for (const auto& [name, aggregate] : total) {
    auto it = pod_requests.find(name);
    const api::Quantity pod_value = it == pod_requests.end() ? api::Quantity() : it->second;
    if (aggregate > pod_value) {
      errs.add(invalid(path.child("requests").key(name), BadValue::str(pod_value.to_string()),
                       "must be greater than or equal to aggregate container requests of " +
                           aggregate.to_string()));
    }
  }
  const Resources pod_limits = resources_at(pod, "limits");
  if (!containers.is_array()) return;
  for (std::size_t i = 0; i < containers.size(); ++i) {
    for (const auto& [name, limit] : resources_at(child_at(containers[i], "resources"), "limits")) {
      auto it = pod_limits.find(name);
      if (it == pod_limits.end() || !(limit > it->second)) continue;
      errs.add(invalid(path.child("containers").index(i).key(name).child("limits"),
                       BadValue::str(limit.to_string()),
                       "must be less than or equal to pod limits of " + it->second.to_string()));
    }
  }
}

}  // namespace vc::webhook::jobs::detail
