#include "webhook/admission/pods/pod_schema.h"

namespace vc::webhook::pods {
namespace {

using scheduling::go_any;
using scheduling::go_map;
using scheduling::go_object_meta;
using scheduling::go_scalar;
using scheduling::go_slice;
using scheduling::go_string;
using scheduling::go_struct;
using scheduling::GoField;
using scheduling::GoTypePtr;
using K = GoType::Kind;

// A field with `json:"name,omitempty"`; `pointer` for *T fields.
GoField opt(std::string name, GoTypePtr type, bool pointer = false) {
  return {std::move(name), std::move(type), true, pointer};
}
GoField req(std::string name, GoTypePtr type) {
  return {std::move(name), std::move(type)};
}

GoTypePtr strings() {
  return go_slice(go_string());
}

GoTypePtr label_selector() {
  auto requirement =
      go_struct("v1.LabelSelectorRequirement",
                {req("key", go_string()), req("operator", go_string("v1.LabelSelectorOperator")),
                 opt("values", strings())});
  return go_struct("v1.LabelSelector", {opt("matchLabels", go_map(go_string())),
                                        opt("matchExpressions", go_slice(requirement))});
}

GoTypePtr node_selector_term() {
  auto requirement =
      go_struct("v1.NodeSelectorRequirement",
                {req("key", go_string()), req("operator", go_string("v1.NodeSelectorOperator")),
                 opt("values", strings())});
  return go_struct("v1.NodeSelectorTerm", {opt("matchExpressions", go_slice(requirement)),
                                           opt("matchFields", go_slice(requirement))});
}

GoTypePtr pod_affinity_term() {
  return go_struct(
      "v1.PodAffinityTerm",
      {opt("labelSelector", label_selector(), true), opt("namespaces", strings()),
       req("topologyKey", go_string()), opt("namespaceSelector", label_selector(), true),
       opt("matchLabelKeys", strings()), opt("mismatchLabelKeys", strings())});
}

GoTypePtr pod_affinity(const char* name) {
  auto weighted = go_struct(
      "v1.WeightedPodAffinityTerm",
      {req("weight", go_scalar(K::Int32, "int32")), req("podAffinityTerm", pod_affinity_term())});
  return go_struct(
      name, {opt("requiredDuringSchedulingIgnoredDuringExecution", go_slice(pod_affinity_term())),
             opt("preferredDuringSchedulingIgnoredDuringExecution", go_slice(weighted))});
}

GoTypePtr build_affinity() {
  auto node_selector =
      go_struct("v1.NodeSelector", {req("nodeSelectorTerms", go_slice(node_selector_term()))});
  auto preferred = go_struct(
      "v1.PreferredSchedulingTerm",
      {req("weight", go_scalar(K::Int32, "int32")), req("preference", node_selector_term())});
  auto node_affinity =
      go_struct("v1.NodeAffinity",
                {opt("requiredDuringSchedulingIgnoredDuringExecution", node_selector, true),
                 opt("preferredDuringSchedulingIgnoredDuringExecution", go_slice(preferred))});
  return go_struct("v1.Affinity",
                   {opt("nodeAffinity", node_affinity, true),
                    opt("podAffinity", pod_affinity("v1.PodAffinity"), true),
                    opt("podAntiAffinity", pod_affinity("v1.PodAntiAffinity"), true)});
}

GoTypePtr build_toleration() {
  return go_struct("v1.Toleration",
                   {opt("key", go_string()), opt("operator", go_string("v1.TolerationOperator")),
                    opt("value", go_string()), opt("effect", go_string("v1.TaintEffect")),
                    opt("tolerationSeconds", go_scalar(K::Int64, "int64"), true)});
}

const GoTypePtr& affinity_ptr() {
  static const GoTypePtr type = build_affinity();
  return type;
}

const GoTypePtr& toleration_ptr() {
  static const GoTypePtr type = build_toleration();
  return type;
}

GoTypePtr build_pod() {
  auto gate = go_struct("v1.PodSchedulingGate", {req("name", go_string())});
  auto spec = go_struct("v1.PodSpec", {{"schedulerName", go_string()},
                                       {"nodeSelector", go_map(go_string())},
                                       {"affinity", affinity_ptr()},
                                       {"tolerations", go_slice(toleration_ptr())},
                                       {"schedulingGates", go_slice(gate)},
                                       {"nodeName", go_string()},
                                       {"serviceAccountName", go_string()},
                                       {"priorityClassName", go_string()},
                                       {"priority", go_scalar(K::Int32, "int32")},
                                       {"restartPolicy", go_string("v1.RestartPolicy")},
                                       {"containers", go_any()}});
  return go_struct("v1.Pod", {{"kind", go_string()},
                              {"apiVersion", go_string()},
                              {"metadata", go_object_meta()},
                              {"spec", spec},
                              {"status", go_any()}});
}

}  // namespace

const GoType& pod_type() {
  static const GoTypePtr type = build_pod();
  return *type;
}

const GoType& affinity_type() {
  return *affinity_ptr();
}

const GoType& toleration_type() {
  return *toleration_ptr();
}

}  // namespace vc::webhook::pods
