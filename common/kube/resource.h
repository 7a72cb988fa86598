#pragma once
// The small, fixed table of API resources we use: no discovery is needed for these types.

#include <string>
#include <string_view>

namespace vc::kube {

struct Resource {
  std::string_view group;    // "" for the core group
  std::string_view version;  // "v1", "v1beta1", ...
  std::string_view plural;   // "pods"
  std::string_view kind;     // "Pod"
  bool namespaced = true;

  // "v1" or "scheduling.volcano.sh/v1beta1", as in an object's apiVersion.
  std::string api_version() const;
  // "/api/v1" or "/apis/<group>/<version>".
  std::string base_path() const;
  // Collection or object path; empty ns means all namespaces (or a cluster-scoped resource).
  std::string path(std::string_view ns, std::string_view name = {},
                   std::string_view subresource = {}) const;
  // "pods" or "queues.scheduling.volcano.sh", for logs and metric labels.
  std::string qualified() const;
};

namespace resources {
inline constexpr Resource pods{"", "v1", "pods", "Pod", true};
inline constexpr Resource services{"", "v1", "services", "Service", true};
inline constexpr Resource configmaps{"", "v1", "configmaps", "ConfigMap", true};
inline constexpr Resource secrets{"", "v1", "secrets", "Secret", true};
inline constexpr Resource events{"", "v1", "events", "Event", true};
inline constexpr Resource namespaces{"", "v1", "namespaces", "Namespace", false};
inline constexpr Resource nodes{"", "v1", "nodes", "Node", false};
inline constexpr Resource persistentvolumeclaims{"", "v1", "persistentvolumeclaims",
                                                 "PersistentVolumeClaim", true};
inline constexpr Resource serviceaccounts{"", "v1", "serviceaccounts", "ServiceAccount", true};
inline constexpr Resource leases{"coordination.k8s.io", "v1", "leases", "Lease", true};
inline constexpr Resource networkpolicies{"networking.k8s.io", "v1", "networkpolicies",
                                          "NetworkPolicy", true};
inline constexpr Resource priorityclasses{"scheduling.k8s.io", "v1", "priorityclasses",
                                          "PriorityClass", false};
inline constexpr Resource replicasets{"apps", "v1", "replicasets", "ReplicaSet", true};
inline constexpr Resource statefulsets{"apps", "v1", "statefulsets", "StatefulSet", true};
inline constexpr Resource mutatingwebhookconfigurations{"admissionregistration.k8s.io", "v1",
                                                        "mutatingwebhookconfigurations",
                                                        "MutatingWebhookConfiguration", false};
inline constexpr Resource validatingwebhookconfigurations{"admissionregistration.k8s.io", "v1",
                                                          "validatingwebhookconfigurations",
                                                          "ValidatingWebhookConfiguration", false};
inline constexpr Resource jobs{"batch.volcano.sh", "v1alpha1", "jobs", "Job", true};
inline constexpr Resource cronjobs{"batch.volcano.sh", "v1alpha1", "cronjobs", "CronJob", true};
inline constexpr Resource commands{"bus.volcano.sh", "v1alpha1", "commands", "Command", true};
inline constexpr Resource podgroups{"scheduling.volcano.sh", "v1beta1", "podgroups", "PodGroup",
                                    true};
inline constexpr Resource queues{"scheduling.volcano.sh", "v1beta1", "queues", "Queue", false};
inline constexpr Resource hypernodes{"topology.volcano.sh", "v1alpha1", "hypernodes", "HyperNode",
                                     false};
inline constexpr Resource nodeshards{"shard.volcano.sh", "v1alpha1", "nodeshards", "NodeShard",
                                     false};
inline constexpr Resource jobflows{"flow.volcano.sh", "v1alpha1", "jobflows", "JobFlow", true};
inline constexpr Resource jobtemplates{"flow.volcano.sh", "v1alpha1", "jobtemplates", "JobTemplate",
                                       true};
}  // namespace resources

}  // namespace vc::kube
