#include "webhook/admission/scheduling/queue_model.h"

#include <algorithm>

#include "webhook/admission/go_readers.h"

namespace vc::webhook::scheduling {
namespace {

api::ResourceList read_resources(const nlohmann::json& object,
                                 std::initializer_list<std::string_view> path) {
  api::ResourceList out;
  const auto* list = go_find(object, path);
  if (!list || !list->is_object()) return out;
  for (const auto& [name, value] : list->items()) {
    auto quantity = api::quantity_from_json(value);
    if (quantity.ok()) out.emplace(name, std::move(quantity).value());
  }
  return out;
}

}  // namespace

bool QueueModel::has_allocated_pods() const {
  auto it = allocated.find("pods");
  return it != allocated.end() && !it->second.is_zero();
}

long long QueueModel::allocated_pods() const {
  auto it = allocated.find("pods");
  return it == allocated.end() ? 0 : it->second.value();
}

QueueModel read_queue(const nlohmann::json& object) {
  QueueModel q;
  q.name = go_get_string(object, {"metadata", "name"});
  q.parent = go_get_string(object, {"spec", "parent"});
  q.annotations = go_get_string_map(object, {"metadata", "annotations"});
  q.capability = read_resources(object, {"spec", "capability"});
  q.deserved = read_resources(object, {"spec", "deserved"});
  q.guarantee = read_resources(object, {"spec", "guarantee", "resource"});
  q.state = go_get_string(object, {"status", "state"});
  q.allocated = read_resources(object, {"status", "allocated"});
  return q;
}

QueueModel read_queue(const QueuePtr& object) {
  return object ? read_queue(*object) : QueueModel{};
}

namespace {
std::vector<QueueModel> read_sorted(const std::vector<QueuePtr>& queues) {
  std::vector<QueueModel> out;
  out.reserve(queues.size());
  for (const auto& q : queues) {
    out.push_back(read_queue(q));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const QueueModel& a, const QueueModel& b) { return a.name < b.name; });
  return out;
}
}  // namespace

std::vector<QueueModel> read_child_queues(const ClusterView& view, std::string_view parent) {
  return read_sorted(view.child_queues(parent));
}

std::vector<QueueModel> read_all_queues(const ClusterView& view) {
  return read_sorted(view.list_queues());
}

}  // namespace vc::webhook::scheduling
