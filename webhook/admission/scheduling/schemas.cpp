#include "webhook/admission/scheduling/schemas.h"

namespace vc::webhook::scheduling {
namespace {

using K = GoType::Kind;

GoTypePtr int32_type() {
  return go_scalar(K::Int32, "int32");
}

GoTypePtr label_selector_requirements() {
  return go_slice(
      go_struct("v1.LabelSelectorRequirement", {{"key", go_string()},
                                                {"operator", go_string("v1.LabelSelectorOperator")},
                                                {"values", go_slice(go_string())}}));
}

GoTypePtr label_selector() {
  return go_struct("v1.LabelSelector", {{"matchLabels", go_map(go_string())},
                                        {"matchExpressions", label_selector_requirements()}});
}

GoTypePtr network_topology() {
  return go_struct("v1beta1.NetworkTopologySpec",
                   {{"mode", go_string("v1beta1.NetworkTopologyMode")},
                    {"highestTierAllowed", go_scalar(K::Int64, "int")},
                    {"highestTierName", go_string()}});
}

GoTypePtr type_meta_and(std::string name, GoTypePtr spec, GoTypePtr status) {
  return go_struct(std::move(name), {{"kind", go_string()},
                                     {"apiVersion", go_string()},
                                     {"metadata", go_object_meta()},
                                     {"spec", std::move(spec)},
                                     {"status", std::move(status)}});
}

GoTypePtr build_queue() {
  auto node_group = [](const char* name) {
    return go_struct(name,
                     {{"requiredDuringSchedulingIgnoredDuringExecution", go_slice(go_string())},
                      {"preferredDuringSchedulingIgnoredDuringExecution", go_slice(go_string())}});
  };
  auto spec = go_struct(
      "v1beta1.QueueSpec",
      {{"weight", int32_type()},
       {"capability", go_resource_list()},
       {"reclaimable", go_scalar(K::Bool, "bool")},
       {"extendClusters",
        go_slice(go_struct(
            "v1beta1.Cluster",
            {{"name", go_string()}, {"weight", int32_type()}, {"capacity", go_resource_list()}}))},
       {"guarantee", go_struct("v1beta1.Guarantee", {{"resource", go_resource_list()}})},
       {"affinity",
        go_struct("v1beta1.Affinity",
                  {{"nodeGroupAffinity", node_group("v1beta1.NodeGroupAffinity")},
                   {"nodeGroupAntiAffinity", node_group("v1beta1.NodeGroupAntiAffinity")}})},
       {"type", go_string()},
       {"parent", go_string()},
       {"deserved", go_resource_list()},
       {"priority", int32_type()},
       {"dequeueStrategy", go_string("v1beta1.DequeueStrategy")}});
  auto status = go_struct(
      "v1beta1.QueueStatus",
      {{"state", go_string("v1beta1.QueueState")},
       {"unknown", int32_type()},
       {"pending", int32_type()},
       {"running", int32_type()},
       {"inqueue", int32_type()},
       {"completed", int32_type()},
       {"reservation", go_struct("v1beta1.Reservation", {{"nodes", go_slice(go_string())},
                                                         {"resource", go_resource_list()}})},
       {"allocated", go_resource_list()}});
  return type_meta_and("v1beta1.Queue", spec, status);
}

GoTypePtr build_podgroup() {
  auto spec = go_struct(
      "v1beta1.PodGroupSpec",
      {{"minMember", int32_type()},
       {"minTaskMember", go_map(int32_type())},
       {"queue", go_string()},
       {"priorityClassName", go_string()},
       {"minResources", go_resource_list()},
       {"networkTopology", network_topology()},
       {"subGroupPolicy", go_slice(go_struct("v1beta1.SubGroupPolicySpec",
                                             {{"name", go_string()},
                                              {"networkTopology", network_topology()},
                                              {"subGroupSize", int32_type()},
                                              {"minSubGroups", int32_type()},
                                              {"labelSelector", label_selector()},
                                              {"matchLabelKeys", go_slice(go_string())}}))}});
  auto status = go_struct("v1beta1.PodGroupStatus", {{"phase", go_string("v1beta1.PodGroupPhase")},
                                                     {"conditions", go_any()},
                                                     {"running", int32_type()},
                                                     {"succeeded", int32_type()},
                                                     {"failed", int32_type()}});
  return type_meta_and("v1beta1.PodGroup", spec, status);
}

GoTypePtr build_hypernode() {
  auto selector = go_struct(
      "v1alpha1.MemberSelector",
      {{"exactMatch", go_struct("v1alpha1.ExactMatch", {{"name", go_string()}})},
       {"regexMatch", go_struct("v1alpha1.RegexMatch", {{"pattern", go_string()}})},
       {"labelMatch",
        go_struct("v1alpha1.LabelMatch", {{"matchLabels", go_map(go_string())},
                                          {"matchExpressions", label_selector_requirements()}})}});
  auto spec = go_struct("v1alpha1.HyperNodeSpec",
                        {{"tier", go_scalar(K::Int64, "int")},
                         {"tierName", go_string()},
                         {"members", go_slice(go_struct("v1alpha1.MemberSpec",
                                                        {{"type", go_string("v1alpha1.MemberType")},
                                                         {"selector", selector}}))}});
  return type_meta_and("v1alpha1.HyperNode", spec, go_any());
}

}  // namespace

const GoType& queue_type() {
  static const GoTypePtr type = build_queue();
  return *type;
}

const GoType& podgroup_type() {
  static const GoTypePtr type = build_podgroup();
  return *type;
}

const GoType& hypernode_type() {
  static const GoTypePtr type = build_hypernode();
  return *type;
}

}  // namespace vc::webhook::scheduling
