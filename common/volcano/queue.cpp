#include "common/volcano/queue.h"

namespace vc::volcano {

using nlohmann::json;

namespace {

std::optional<NodeGroupAffinity> node_group_affinity_at(const json& affinity, std::string_view name,
                                                        const FieldPath& at) {
  const json* a = read::object_at(affinity, name, at);
  if (a == nullptr) return std::nullopt;
  const FieldPath p = at.key(name);
  return NodeGroupAffinity{
      read::strings_at(*a, "requiredDuringSchedulingIgnoredDuringExecution", p),
      read::strings_at(*a, "preferredDuringSchedulingIgnoredDuringExecution", p)};
}

QueueSpec decode_spec(const json& spec, const FieldPath& at) {
  QueueSpec out;
  out.weight = read::int32_at(spec, "weight", at);
  out.capability = read::resource_list_at(spec, "capability", at);
  out.reclaimable = read::opt_bool_at(spec, "reclaimable", at);
  read::each_at(spec, "extendClusters", at, [&](const json& c, const FieldPath& cp) {
    out.extend_clusters.push_back({read::string_at(c, "name", cp), read::int32_at(c, "weight", cp),
                                   read::resource_list_at(c, "capacity", cp)});
  });
  if (const json* g = read::object_at(spec, "guarantee", at)) {
    out.guarantee = read::resource_list_at(*g, "resource", at.key("guarantee"));
  }
  if (const json* a = read::object_at(spec, "affinity", at)) {
    const FieldPath ap = at.key("affinity");
    out.affinity = QueueAffinity{node_group_affinity_at(*a, "nodeGroupAffinity", ap),
                                 node_group_affinity_at(*a, "nodeGroupAntiAffinity", ap)};
  }
  out.type = read::string_at(spec, "type", at);
  out.parent = read::string_at(spec, "parent", at);
  out.deserved = read::resource_list_at(spec, "deserved", at);
  out.priority = read::int32_at(spec, "priority", at);
  out.dequeue_strategy = read::string_at(spec, "dequeueStrategy", at);
  return out;
}

QueueStatus decode_status(const json& status, const FieldPath& at) {
  QueueStatus out;
  out.state = read::string_at(status, "state", at);
  out.unknown = read::int32_at(status, "unknown", at);
  out.pending = read::int32_at(status, "pending", at);
  out.running = read::int32_at(status, "running", at);
  out.inqueue = read::int32_at(status, "inqueue", at);
  out.completed = read::int32_at(status, "completed", at);
  if (const json* r = read::object_at(status, "reservation", at)) {
    const FieldPath rp = at.key("reservation");
    out.reservation = QueueReservation{read::strings_at(*r, "nodes", rp),
                                       read::resource_list_at(*r, "resource", rp)};
  }
  out.allocated = read::resource_list_at(status, "allocated", at);
  return out;
}

}  // namespace

void decode_queue(const json& queue, Queue& out, const FieldPath& root) {
  read::object(queue, root);
  decode_object_meta(queue, root, out);
  if (const json* spec = read::object_at(queue, "spec", root)) {
    out.spec = decode_spec(*spec, root.key("spec"));
  }
  if (const json* status = read::object_at(queue, "status", root)) {
    out.status = decode_status(*status, root.key("status"));
  }
}

}  // namespace vc::volcano
