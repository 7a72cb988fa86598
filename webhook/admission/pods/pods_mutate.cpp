// /pods/mutate (spec webhook.md §2.7): the queue allocation gate and resource groups.

#include "common/go/strconv.h"
#include "webhook/admission/field_error.h"
#include "webhook/admission/go_readers.h"
#include "webhook/admission/pods/admit.h"
#include "webhook/admission/pods/go_roundtrip.h"
#include "webhook/admission/pods/pod_schema.h"
#include "webhook/admission/pods/resource_groups.h"
#include "webhook/admission/request_checks.h"

namespace vc::webhook::pods {
namespace {

constexpr const char* kQueueAllocationGate = "scheduling.volcano.sh/queue-allocation-gate";

json add(const char* path, json value) {
  return {{"op", "add"}, {"path", path}, {"value", std::move(value)}};
}

// The scheduling gate that holds the pod until its queue admits it, for pods that opt in.
void add_scheduling_gate(const json& pod, json& ops) {
  const auto annotations = go_get_string_map(pod, {"metadata", "annotations"});
  auto it = annotations.find(kQueueAllocationGate);
  if (it == annotations.end() || it->second != "true") return;
  const json gate = {{"name", kQueueAllocationGate}};
  const json* gates = go_get_array(pod, {"spec", "schedulingGates"});
  if (gates) {
    for (const auto& g : *gates) {
      if (go_get_string(g, {"name"}) == kQueueAllocationGate) return;
    }
    ops.push_back(add("/spec/schedulingGates/-", gate));
  } else {
    ops.push_back(add("/spec/schedulingGates", json::array({gate})));
  }
}

// The patch operations of the group the pod belongs to.
void apply_group(const ResourceGroup& group, const json& pod, json& ops,
                 std::vector<std::string>& warnings) {
  if (!group.labels.empty()) {
    auto selector = go_get_string_map(pod, {"spec", "nodeSelector"});
    for (const auto& [key, value] : group.labels) selector[key] = value;  // the group wins
    ops.push_back(add("/spec/nodeSelector", selector));
  }
  if (!group.affinity.empty() && !go_find(pod, {"spec", "affinity"})) {
    // Volcano decodes the text into a v1.Affinity and sends that back re-encoded; text that
    // does not decode is skipped (Volcano only prints it), and we say so in a warning.
    const json parsed = json::parse(group.affinity, nullptr, false);
    auto affinity = parsed.is_discarded()
                        ? api::Expected<json>(api::Unexpected{"the text is not valid JSON"})
                        : go_roundtrip(parsed, affinity_type());
    if (affinity.ok()) {
      ops.push_back(add("/spec/affinity", std::move(affinity).value()));
    } else {
      warnings.push_back("resource group " + go::quote(group.resource_group) +
                         ": affinity not applied: " + affinity.error());
    }
  }
  if (group.tolerations.is_array() && !group.tolerations.empty()) {
    json tolerations = json::array();
    if (const json* own = go_get_array(pod, {"spec", "tolerations"})) {
      for (const auto& t : *own) {
        // Re-encoded like Go would, which also bounds what we copy from the request.
        auto encoded = go_roundtrip(t, toleration_type());
        tolerations.push_back(encoded.ok() ? std::move(encoded).value() : json::object());
      }
    }
    for (const auto& t : group.tolerations) tolerations.push_back(t);
    ops.push_back(add("/spec/tolerations", std::move(tolerations)));
  }
  if (!group.scheduler_name.empty()) {
    ops.push_back(add("/spec/schedulerName", group.scheduler_name));
  }
}

}  // namespace

AdmissionResponse admit_pods_mutate(const AdmissionRequest& request, const ClusterView& /*view*/,
                                    const AdmissionOptions& options) {
  if (auto e = check_and_decode(request, kPodsResource, pod_type())) {
    return AdmissionResponse::deny(*e);
  }
  if (request.operation != "CREATE") {
    return AdmissionResponse::deny("expect operation to be 'CREATE' ");
  }
  // Without a configuration loaded at start-up the mutator is off, the gate included.
  const auto& config = options.pod_admission_config;
  if (!config) return {};

  const json& pod = request.object;
  std::string pod_namespace = go_get_string(pod, {"metadata", "namespace"});
  if (pod_namespace.empty()) pod_namespace = request.namespace_;

  AdmissionResponse response;
  json ops = json::array();
  if (options.scheduling_gates_queue_admission) add_scheduling_gate(pod, ops);
  const auto annotations = go_get_string_map(pod, {"metadata", "annotations"});
  for (const auto& group : config->resource_groups) {
    if (!pod_in_group(group, pod_namespace, annotations)) continue;
    apply_group(group, pod, ops, response.warnings);
    break;  // only the first matching group applies
  }
  response.patch = std::move(ops);
  return response;
}

}  // namespace vc::webhook::pods
