#pragma once
// ControllerRegistry: the named controllers a process can host and the --controllers decision
// over them (spec controller-manager.md §1.9).
//
// Every name Volcano registers is known, whether or not vc-cpp implements it, so that command
// lines written for Volcano keep their meaning: a known name without a factory is accepted by the
// gate and reported once as not implemented. A factory may also return null; the process treats
// that the same way.
//
//   ControllerRegistry registry;
//   registry.add("queue-controller", queue::make_queue_controller);
//   for (const auto& c : registry.select(options.controllers).enabled) ... c.factory() ...
//
// Thread-safety: build on one thread at start-up; const methods may then be called from any
// thread.

#include <string>
#include <string_view>
#include <vector>

#include "controllers/framework/controller.h"

namespace vc::controllers {

// The controller names Volcano v1.15 registers, sorted (as printed in the --controllers help).
const std::vector<std::string>& known_controller_names();

struct Registration {
  std::string name;
  ControllerFactory factory;  // null: known but not implemented by vc-cpp
};

// What --controllers selects from a registry.
struct Selection {
  std::vector<Registration> enabled;       // implemented and enabled, sorted by name
  std::vector<std::string> disabled;       // known or registered names the gate turns off
  std::vector<std::string> unimplemented;  // enabled by the gate, but no factory
};

class ControllerRegistry {
 public:
  // Starts with every known name, none implemented.
  ControllerRegistry();

  // Sets the factory of name (known or not: tests register their own). Replaces an earlier one.
  void add(std::string name, ControllerFactory factory);

  // Every registration, sorted by name.
  const std::vector<Registration>& registrations() const { return registrations_; }

  Selection select(const std::vector<std::string>& gates) const;

 private:
  std::vector<Registration> registrations_;  // sorted by name, names unique
};

}  // namespace vc::controllers
