#include "webhook/admission/scheduling/queue_model.h"

#include <algorithm>

#include "common/volcano/queue.h"

namespace vc::webhook::scheduling {
bool QueueModel::has_allocated_pods() const {
  auto it = allocated.find("pods");
  return it != allocated.end() && !it->second.is_zero();
}

long long QueueModel::allocated_pods() const {
  auto it = allocated.find("pods");
  return it == allocated.end() ? 0 : it->second.value();
}

namespace {

// Volcano's typed cache never holds a Queue its client cannot decode, so such an entry of ours
// reads as an absent queue (nullopt). A request object always decodes: it was checked against
// the Go types first.
std::optional<QueueModel> decode(const nlohmann::json& object) {
  volcano::Queue queue;
  try {
    volcano::decode_queue(object, queue);
  } catch (const volcano::DecodeError&) {
    return std::nullopt;
  }
  QueueModel q;
  q.name = std::move(queue.name);
  q.parent = std::move(queue.spec.parent);
  q.weight = queue.spec.weight;
  q.reclaimable = queue.spec.reclaimable;
  for (auto& [key, value] : queue.annotations) q.annotations.emplace(key, std::move(value));
  q.capability = std::move(queue.spec.capability);
  q.deserved = std::move(queue.spec.deserved);
  q.guarantee = std::move(queue.spec.guarantee);
  q.state = std::move(queue.status.state);
  q.allocated = std::move(queue.status.allocated);
  return q;
}

}  // namespace

QueueModel read_queue(const nlohmann::json& object) {
  return decode(object).value_or(QueueModel{});
}

QueueModel read_queue(const QueuePtr& object) {
  return object ? read_queue(*object) : QueueModel{};
}

namespace {
std::vector<QueueModel> read_sorted(const std::vector<QueuePtr>& queues) {
  std::vector<QueueModel> out;
  out.reserve(queues.size());
  for (const auto& q : queues) {
    if (!q) continue;
    if (auto model = decode(*q)) out.push_back(std::move(*model));
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
