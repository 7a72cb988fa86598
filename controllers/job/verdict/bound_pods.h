#pragma once
// The pods that take room on a node, from the controller's pod cache instead of a cluster-wide
// pod list, in the shape explain's room count reads (controllers/explain/read_snapshot.h
// slim_pod): a verdict pass then lists no pod, and holds a few hundred bytes per pod.
//
// Threads: pure function of its argument.

#include <vector>

#include <nlohmann/json.hpp>

#include "common/kube/cache/object.h"

namespace vc::controllers::job::verdict {

// The cached pods (PodViews, controllers/views/pod_view.h) bound to a node, neither finished nor
// being deleted, each as {metadata: {name, namespace}, spec: {nodeName, containers: [one with
// the pod's effective requests]}, status: {phase}}. Objects that are not PodViews are skipped.
std::vector<nlohmann::json> bound_pods(const std::vector<kube::cache::ObjectPtr>& pods);

}  // namespace vc::controllers::job::verdict
