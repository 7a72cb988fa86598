#include "common/volcano/podgroup.h"

#include "common/volcano/job_decode.h"

namespace vc::volcano {

using nlohmann::json;

namespace {

PodGroupSpec decode_spec(const json& spec, const FieldPath& at) {
  PodGroupSpec out;
  out.min_member = read::int32_at(spec, "minMember", at);
  read::each_entry_at(
      spec, "minTaskMember", at, [&](std::string_view task, const json& n, const FieldPath& np) {
        out.min_task_member[std::string(task)] = n.is_null() ? 0 : read::int32(n, np);
      });
  out.queue = read::string_at(spec, "queue", at);
  out.priority_class_name = read::string_at(spec, "priorityClassName", at);
  if (read::find(spec, "minResources", at) != nullptr) {
    out.min_resources = read::resource_list_at(spec, "minResources", at);
  } else if (at.trace() != nullptr) {
    read::resource_list_at(spec, "minResources", at);  // records the map's values
  }
  out.network_topology = network_topology_at(spec, at);
  read::each_at(spec, "subGroupPolicy", at, [&](const json& p, const FieldPath& pp) {
    SubGroupPolicy policy;
    policy.name = read::string_at(p, "name", pp);
    policy.network_topology = network_topology_at(p, pp);
    policy.sub_group_size = read::opt_int32_at(p, "subGroupSize", pp);
    policy.min_sub_groups = read::opt_int32_at(p, "minSubGroups", pp);
    policy.label_selector = label_selector_at(p, "labelSelector", pp);
    policy.match_label_keys = read::strings_at(p, "matchLabelKeys", pp);
    out.sub_group_policy.push_back(std::move(policy));
  });
  return out;
}

PodGroupStatus decode_status(const json& status, const FieldPath& at) {
  PodGroupStatus out;
  out.phase = read::string_at(status, "phase", at);
  read::each_at(status, "conditions", at, [&](const json& c, const FieldPath& cp) {
    out.conditions.push_back({read::string_at(c, "type", cp), read::string_at(c, "status", cp),
                              read::string_at(c, "transitionID", cp),
                              read::time_at(c, "lastTransitionTime", cp),
                              read::string_at(c, "reason", cp), read::string_at(c, "message", cp)});
  });
  out.running = read::int32_at(status, "running", at);
  out.succeeded = read::int32_at(status, "succeeded", at);
  out.failed = read::int32_at(status, "failed", at);
  return out;
}

}  // namespace

void decode_podgroup(const json& podgroup, PodGroup& out, const FieldPath& root) {
  read::object(podgroup, root);
  decode_object_meta(podgroup, root, out);
  if (const json* meta = read::object_at(podgroup, "metadata", root)) {
    out.owner_references = owner_refs_at(*meta, "ownerReferences", root.key("metadata"));
  }
  if (const json* spec = read::object_at(podgroup, "spec", root)) {
    out.spec = decode_spec(*spec, root.key("spec"));
  }
  if (const json* status = read::object_at(podgroup, "status", root)) {
    out.status = decode_status(*status, root.key("status"));
  }
}

}  // namespace vc::volcano
