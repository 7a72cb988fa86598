#pragma once
// What keeps a bound pod's containers from running, read from its container statuses: a waiting
// reason that needs a change to the pod or the cluster (an image that cannot be pulled, a
// missing ConfigMap or Secret, a container that keeps crashing). Reasons a kubelet passes through
// on a normal start (ContainerCreating, PodInitializing) are not trouble.
//
// Threads: pure functions.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace vc::controllers::explain {

struct ContainerTrouble {
  std::string container;
  std::string reason;   // the kubelet's waiting reason, e.g. ErrImagePull
  std::string message;  // the kubelet's message
  std::string action;   // what the user can do
};

std::optional<ContainerTrouble> container_trouble(const nlohmann::json& pod);

// ": container c exited 1 (Error)" for the first terminated container of a pod, or "".
std::string container_exit_summary(const nlohmann::json& pod);

}  // namespace vc::controllers::explain
