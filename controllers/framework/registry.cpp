#include "controllers/framework/registry.h"

#include <algorithm>

#include "controllers/framework/gates.h"

namespace vc::controllers {

const std::vector<std::string>& known_controller_names() {
  static const std::vector<std::string> names = {
      "colocation-config-controller", "cronjob-controller", "gc-controller",
      "hyperNode-controller",         "job-controller",     "jobflow-controller",
      "jobtemplate-controller",       "pg-controller",      "queue-controller",
      "sharding-controller",
  };
  return names;
}

ControllerRegistry::ControllerRegistry() {
  for (const auto& name : known_controller_names()) registrations_.push_back({name, nullptr});
}

void ControllerRegistry::add(std::string name, ControllerFactory factory) {
  auto it =
      std::lower_bound(registrations_.begin(), registrations_.end(), name,
                       [](const Registration& r, const std::string& n) { return r.name < n; });
  if (it != registrations_.end() && it->name == name) {
    it->factory = std::move(factory);
    return;
  }
  registrations_.insert(it, Registration{std::move(name), std::move(factory)});
}

Selection ControllerRegistry::select(const std::vector<std::string>& gates) const {
  Selection out;
  for (const auto& r : registrations_) {
    if (!controller_enabled(r.name, gates)) {
      out.disabled.push_back(r.name);
    } else if (r.factory) {
      out.enabled.push_back(r);
    } else {
      out.unimplemented.push_back(r.name);
    }
  }
  return out;
}

}  // namespace vc::controllers
