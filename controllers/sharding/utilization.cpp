#include "controllers/sharding/utilization.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <stdexcept>

#include "common/api/quantity.h"
#include "common/json/member_filter.h"

namespace vc::controllers::sharding {
namespace {

using nlohmann::json;

std::optional<api::Quantity> quantity_at(const json& list, const char* name) {
  if (!list.is_object()) return std::nullopt;
  auto it = list.find(name);
  if (it == list.end() || !it->is_string()) return std::nullopt;
  auto q = api::Quantity::parse(it->get<std::string>());
  if (!q) throw std::invalid_argument(std::string("quantity ") + name + ": " + q.error());
  return *q;
}

const json& at_path(const json& j, std::initializer_list<const char*> path) {
  static const json null;
  const json* cur = &j;
  for (const char* p : path) {
    if (!cur->is_object()) return null;
    auto it = cur->find(p);
    if (it == cur->end()) return null;
    cur = &*it;
  }
  return *cur;
}

}  // namespace

kube::cache::Transform node_capacity_transform() {
  static const auto reads = std::make_shared<const fastjson::MemberFilter>(
      fastjson::MemberFilter::only({"metadata.name", "metadata.uid", "metadata.resourceVersion",
                                    "metadata.labels", "metadata.annotations", "status.capacity"}));
  return {"sharding-node",
          [](json&& object) -> kube::cache::ObjectPtr {
            auto out = std::make_shared<NodeCapacity>();
            kube::cache::read_metadata(object, *out);
            const json& capacity = at_path(object, {"status", "capacity"});
            if (auto cpu = quantity_at(capacity, "cpu")) {
              out->cpu_milli = cpu->milli_value();
              out->cpu_cores = cpu->value();
            }
            if (auto mem = quantity_at(capacity, "memory")) out->memory = mem->value();
            const json& annotations = at_path(object, {"metadata", "annotations"});
            if (annotations.is_object()) {
              // Sorted keys (nlohmann objects are ordered maps): equal maps hash equal.
              std::uint64_t h = 1469598103934665603ULL;
              for (auto it = annotations.begin(); it != annotations.end(); ++it) {
                const std::string v = it->is_string() ? it->get<std::string>() : it->dump();
                h = (h ^ std::hash<std::string>{}(it.key())) * 1099511628211ULL;
                h = (h ^ std::hash<std::string>{}(v)) * 1099511628211ULL;
              }
              out->annotations_hash = h;
              out->annotation_count = annotations.size();
            }
            return out;
          },
          reads};
}

kube::cache::Transform pod_usage_transform() {
  static const auto reads =
      std::make_shared<const fastjson::MemberFilter>(fastjson::MemberFilter::only(
          {"metadata.namespace", "metadata.name", "metadata.uid", "metadata.resourceVersion",
           "metadata.annotations", "spec.nodeName", "spec.containers.resources", "status.phase"}));
  return {"sharding-pod",
          [](json&& object) -> kube::cache::ObjectPtr {
            auto out = std::make_shared<PodUsage>();
            kube::cache::read_metadata(object, *out);
            out->labels.clear();  // not read; keeps the cached pod small
            const json& node = at_path(object, {"spec", "nodeName"});
            if (node.is_string()) out->node_name = node.get<std::string>();
            const json& phase = at_path(object, {"status", "phase"});
            const std::string p = phase.is_string() ? phase.get<std::string>() : "";
            const json& annotations = at_path(object, {"metadata", "annotations"});
            const bool mirror =
                annotations.is_object() && annotations.contains("kubernetes.io/config.mirror");
            out->active = p != "Succeeded" && p != "Failed" && !mirror;
            const json& containers = at_path(object, {"spec", "containers"});
            if (containers.is_array()) {
              out->containers = containers.size();
              for (const json& c : containers) {
                const json& requests = at_path(c, {"resources", "requests"});
                if (auto cpu = quantity_at(requests, "cpu")) out->cpu_milli += cpu->milli_value();
                if (auto mem = quantity_at(requests, "memory")) out->memory += mem->value();
              }
            }
            return out;
          },
          reads};
}

std::shared_ptr<const NodeCapacity> as_node(const kube::cache::ObjectPtr& object) {
  return std::dynamic_pointer_cast<const NodeCapacity>(object);
}

std::shared_ptr<const PodUsage> as_pod(const kube::cache::ObjectPtr& object) {
  return std::dynamic_pointer_cast<const PodUsage>(object);
}

NodeMetrics node_metrics(const NodeCapacity& node, const std::vector<const PodUsage*>& pods) {
  std::int64_t cpu = 0;
  std::int64_t memory = 0;
  for (const PodUsage* p : pods) {
    if (!p->active) continue;
    cpu += p->cpu_milli;
    memory += p->memory;
  }
  NodeMetrics m;
  if (node.cpu_milli > 0) m.cpu = std::min(1.0, double(cpu) / double(node.cpu_milli));
  if (node.memory > 0) m.memory = std::min(1.0, double(memory) / double(node.memory));
  return m;
}

bool utilization_changed(const std::optional<NodeMetrics>& before, const NodeMetrics& now) {
  if (!before) return true;
  return std::abs(now.cpu - before->cpu) > kSignificantChange ||
         std::abs(now.memory - before->memory) > kSignificantChange;
}

bool node_changed(const NodeCapacity& before, const NodeCapacity& after) {
  if (before.labels != after.labels || before.annotations_hash != after.annotations_hash ||
      before.annotation_count != after.annotation_count) {
    return true;
  }
  const double delta = double(std::llabs(after.cpu_cores - before.cpu_cores));
  return delta / double(before.cpu_cores + 1) > kSignificantChange;
}

bool pod_requests_changed(const PodUsage& before, const PodUsage& after) {
  return before.containers != after.containers || before.cpu_milli != after.cpu_milli ||
         before.memory != after.memory;
}

}  // namespace vc::controllers::sharding
