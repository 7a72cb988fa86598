#pragma once
// Resource: Volcano's scheduler resource vector (pkg/scheduler/api Resource as NewResource builds
// it), which queues/validate uses for hierarchy arithmetic. Values are float64 like Volcano's:
//   cpu               milli-units
//   memory            bytes
//   pods              a scalar in whole units
//   ephemeral-storage a scalar in milli-units
//   other names       a scalar in milli-units if Kubernetes calls them scalar resources
//                     (extended, hugepages-*, *kubernetes.io/*, attachable-volumes-*); names
//                     starting with "count/" and every other name are ignored.
// Quantities beyond the int64 range saturate (Go would wrap); the printing helpers clamp.
//
// Threads: a value type; const methods may be called from any thread.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/api/resource_list.h"

namespace vc::webhook::scheduling {

class Resource {
 public:
  static Resource from_list(const api::ResourceList& list);

  double milli_cpu() const { return milli_cpu_; }
  double memory() const { return memory_; }
  const std::map<std::string, double>& scalars() const { return scalars_; }

  void add(const Resource& other);
  // The amount of one resource: cpu, memory or a scalar (0 when absent).
  double get(std::string_view name) const;
  // ResourceNames(): cpu and memory when >= 0.1, then scalars >= 0.1 (sorted by name; Volcano's
  // order is random).
  std::vector<std::string> resource_names() const;
  // LessPartly(other, Zero): some dimension of *this is below other's, or other has a scalar
  // *this does not list at all (even at 0).
  bool less_partly(const Resource& other) const;
  // "cpu 1000.00, memory 2048.00, nvidia.com/gpu 1000.00" (scalars sorted by name).
  std::string to_string() const;

 private:
  double milli_cpu_ = 0;
  double memory_ = 0;
  std::map<std::string, double> scalars_;
};

// How queues/validate prints one amount in capability messages: cpu as a milli quantity ("1500m"),
// memory as a BinarySI quantity ("1Gi"), anything else with "%.2f" ("8000.00").
std::string format_resource_value(std::string_view name, double value);

// Kubernetes' IsExtendedResourceName: not native (no "/" or a kubernetes.io/ name), not
// "requests."-prefixed, and "requests.<name>" is a qualified name.
bool is_extended_resource_name(std::string_view name);
// Kubernetes' IsIntegerResourceName (core helper): pods, services, ... and extended resources.
bool is_integer_resource_name(std::string_view name);

}  // namespace vc::webhook::scheduling
