// The scheduling.volcano.sh and topology.volcano.sh tables of go_types.h.
#include "common/volcano/go_types.h"

#include "common/go/json_types/object_meta.h"

namespace vc::volcano::go_types {
namespace {

using go::GoKind;
using go::GoType;

// The three tables, built once; types_ owns their types.
class Tables {
 public:
  Tables() { build(); }

  const GoType* queue = nullptr;
  const GoType* podgroup = nullptr;
  const GoType* hypernode = nullptr;

 private:
  void build();

  go::GoTypes types_;
};

void Tables::build() {
  auto& t = types_;
  const GoType* str = t.scalar(GoKind::String, "string");
  const GoType* strings = t.slice(str);
  const GoType* string_map = t.map(str);
  const GoType* i32 = t.scalar(GoKind::Int32, "int32");
  const GoType* go_int = t.scalar(GoKind::Int, "int");
  const GoType* i64 = t.scalar(GoKind::Int64, "int64");
  const GoType* time = t.scalar(GoKind::Time, "v1.Time");
  const GoType* resource_list =
      t.map(t.scalar(GoKind::Quantity, "resource.Quantity"), "v1.ResourceList");
  const GoType* object_meta = go::object_meta(t, false);
  auto named = [&](const char* name) { return t.scalar(GoKind::String, name); };
  // TypeMeta, ObjectMeta, spec and status: the shape of every top-level type here.
  auto top_level = [&](const char* name, const GoType* spec, const GoType* status) {
    return t.structure(name, {{"kind", str},
                              {"apiVersion", str},
                              {"metadata", object_meta},
                              {"spec", spec},
                              {"status", status}});
  };
  const GoType* selector_requirements = t.slice(t.structure(
      "v1.LabelSelectorRequirement",
      {{"key", str}, {"operator", named("v1.LabelSelectorOperator")}, {"values", strings}}));
  const GoType* network_topology =
      t.structure("v1beta1.NetworkTopologySpec", {{"mode", named("v1beta1.NetworkTopologyMode")},
                                                  {"highestTierAllowed", go_int},
                                                  {"highestTierName", str}});

  auto node_group = [&](const char* name) {
    return t.structure(name, {{"requiredDuringSchedulingIgnoredDuringExecution", strings},
                              {"preferredDuringSchedulingIgnoredDuringExecution", strings}});
  };
  const GoType* queue_spec = t.structure(
      "v1beta1.QueueSpec",
      {{"weight", i32},
       {"capability", resource_list},
       {"reclaimable", t.scalar(GoKind::Bool, "bool")},
       {"extendClusters",
        t.slice(t.structure("v1beta1.Cluster",
                            {{"name", str}, {"weight", i32}, {"capacity", resource_list}}))},
       {"guarantee", t.structure("v1beta1.Guarantee", {{"resource", resource_list}})},
       {"affinity",
        t.structure("v1beta1.Affinity",
                    {{"nodeGroupAffinity", node_group("v1beta1.NodeGroupAffinity")},
                     {"nodeGroupAntiAffinity", node_group("v1beta1.NodeGroupAntiAffinity")}})},
       {"type", str},
       {"parent", str},
       {"deserved", resource_list},
       {"priority", i32},
       {"dequeueStrategy", named("v1beta1.DequeueStrategy")}});
  const GoType* queue_status = t.structure(
      "v1beta1.QueueStatus",
      {{"state", named("v1beta1.QueueState")},
       {"unknown", i32},
       {"pending", i32},
       {"running", i32},
       {"inqueue", i32},
       {"completed", i32},
       {"reservation",
        t.structure("v1beta1.Reservation", {{"nodes", strings}, {"resource", resource_list}})},
       {"allocated", resource_list}});
  queue = top_level("v1beta1.Queue", queue_spec, queue_status);

  const GoType* label_selector =
      t.structure("v1.LabelSelector",
                  {{"matchLabels", string_map}, {"matchExpressions", selector_requirements}});
  const GoType* podgroup_spec = t.structure(
      "v1beta1.PodGroupSpec",
      {{"minMember", i32},
       {"minTaskMember", t.map(i32)},
       {"queue", str},
       {"priorityClassName", str},
       {"minResources", resource_list},
       {"networkTopology", network_topology},
       {"subGroupPolicy",
        t.slice(t.structure("v1beta1.SubGroupPolicySpec", {{"name", str},
                                                           {"networkTopology", network_topology},
                                                           {"subGroupSize", i32},
                                                           {"minSubGroups", i32},
                                                           {"labelSelector", label_selector},
                                                           {"matchLabelKeys", strings}}))}});
  const GoType* podgroup_condition =
      t.structure("v1beta1.PodGroupCondition", {{"type", named("v1beta1.PodGroupConditionType")},
                                                {"status", named("v1.ConditionStatus")},
                                                {"transitionID", str},
                                                {"lastTransitionTime", time},
                                                {"reason", str},
                                                {"message", str}});
  const GoType* podgroup_status =
      t.structure("v1beta1.PodGroupStatus", {{"phase", named("v1beta1.PodGroupPhase")},
                                             {"conditions", t.slice(podgroup_condition)},
                                             {"running", i32},
                                             {"succeeded", i32},
                                             {"failed", i32}});
  podgroup = top_level("v1beta1.PodGroup", podgroup_spec, podgroup_status);

  const GoType* selector = t.structure(
      "v1alpha1.MemberSelector",
      {{"exactMatch", t.structure("v1alpha1.ExactMatch", {{"name", str}})},
       {"regexMatch", t.structure("v1alpha1.RegexMatch", {{"pattern", str}})},
       {"labelMatch",
        t.structure("v1alpha1.LabelMatch",
                    {{"matchLabels", string_map}, {"matchExpressions", selector_requirements}})}});
  const GoType* hypernode_spec = t.structure(
      "v1alpha1.HyperNodeSpec",
      {{"tier", go_int},
       {"tierName", str},
       {"members",
        t.slice(t.structure("v1alpha1.MemberSpec",
                            {{"type", named("v1alpha1.MemberType")}, {"selector", selector}}))}});
  const GoType* condition = t.structure("v1.Condition", {{"type", str},
                                                         {"status", named("v1.ConditionStatus")},
                                                         {"observedGeneration", i64},
                                                         {"lastTransitionTime", time},
                                                         {"reason", str},
                                                         {"message", str}});
  const GoType* hypernode_status = t.structure(
      "v1alpha1.HyperNodeStatus", {{"conditions", t.slice(condition)}, {"nodeCount", i64}});
  hypernode = top_level("v1alpha1.HyperNode", hypernode_spec, hypernode_status);
}

const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

const GoType& queue() {
  return *tables().queue;
}

const GoType& podgroup() {
  return *tables().podgroup;
}

const GoType& hyper_node() {
  return *tables().hypernode;
}

}  // namespace vc::volcano::go_types
