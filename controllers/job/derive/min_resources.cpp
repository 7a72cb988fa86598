#include "controllers/job/derive/min_resources.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "controllers/views/pod_resources.h"

namespace vc::controllers::job {

namespace {

using nlohmann::json;

// Volcano's calTaskRequests: the usage added `count` times (nothing for count <= 0).
api::ResourceList times(const api::ResourceList& usage, std::int32_t count) {
  api::ResourceList out;
  for (std::int32_t i = 0; i < count; ++i) api::add_to(out, usage);
  return out;
}

const json& spec_of(const json& template_json) {
  static const json kEmpty = json::object();
  auto it = template_json.find("spec");
  return it != template_json.end() && it->is_object() ? *it : kEmpty;
}

// Go's sort.Sort is an insertion sort (stable) for up to 12 elements; a stable sort matches it
// there and stays deterministic beyond.
void sort_by_priority(std::vector<TaskUsage>& tasks) {
  std::stable_sort(tasks.begin(), tasks.end(),
                   [](const TaskUsage& a, const TaskUsage& b) { return a.priority > b.priority; });
}

// The quota usage of one pod of a task template. Every sync of a job asks again (to see whether
// its PodGroup's minResources moved) and jobs of one workload share one interned template, so the
// answers are remembered by template identity: a hash lookup instead of a walk over containers.
// Bounded: cleared when full (a cache of recent templates, not of every template ever seen); an
// entry is used only while its template lives, so a freed template's address reused by another
// cannot answer for it.
api::ResourceList template_usage(const PodTemplate& tmpl) {
  static constexpr std::size_t kMaxEntries = 128;
  struct Entry {
    std::weak_ptr<const json> doc;
    api::ResourceList usage;
  };
  static std::mutex mu;
  static std::unordered_map<const json*, Entry> memo;
  const json* id = tmpl.shared().get();
  {
    std::lock_guard lock(mu);
    if (auto it = memo.find(id); it != memo.end() && it->second.doc.lock() == tmpl.shared()) {
      return it->second.usage;
    }
  }
  api::ResourceList usage = pod_quota_usage(spec_of(tmpl.json()));
  std::lock_guard lock(mu);
  if (memo.size() >= kMaxEntries) memo.clear();
  memo.insert_or_assign(id, Entry{tmpl.shared(), usage});
  return usage;
}

}  // namespace

api::ResourceList pod_quota_usage(const json& pod_spec) {
  // A template's pod has no phase yet, so it always counts as running.
  api::ResourceList usage =
      views::quota_pod_usage(views::pod_requests(pod_spec), views::pod_limits(pod_spec));
  views::add_unprefixed_requests(usage);
  return usage;
}

api::ResourceList first_count_resources(std::vector<TaskUsage> tasks, std::int32_t count) {
  sort_by_priority(tasks);
  api::ResourceList total;
  for (const TaskUsage& t : tasks) {
    if (count <= t.replicas) {
      api::add_to(total, times(t.usage, count));
      break;
    }
    api::add_to(total, times(t.usage, t.replicas));
    count -= t.replicas;
  }
  return total;
}

api::ResourceList min_then_spare_resources(std::vector<TaskUsage> tasks, std::int32_t job_min) {
  sort_by_priority(tasks);
  api::ResourceList total;
  std::int32_t taken = 0;
  for (const TaskUsage& t : tasks) {
    if (!t.min_available) continue;
    const std::int32_t n = std::min(*t.min_available, job_min - taken);
    api::add_to(total, times(t.usage, n));
    taken += n;
    if (taken >= job_min) break;
  }
  if (taken >= job_min) return total;

  std::int32_t left = job_min - taken;
  for (const TaskUsage& t : tasks) {
    std::int32_t spare = t.replicas;
    if (t.min_available) {
      if (*t.min_available == t.replicas) continue;
      // Negative when minAvailable exceeds replicas (the webhook rejects that); Volcano then
      // adds nothing and raises `left`, and so do we.
      spare = t.replicas - *t.min_available;
    }
    if (left >= spare) {
      api::add_to(total, times(t.usage, spare));
      left -= spare;
    } else {
      api::add_to(total, times(t.usage, left));
      left = 0;
    }
    if (left <= 0) break;
  }
  return total;
}

api::ResourceList job_min_resources(const Job& job, const PriorityOf& priority_of) {
  std::vector<TaskUsage> tasks;
  tasks.reserve(job.spec.tasks.size());
  std::int32_t total_min = 0;
  for (const TaskSpec& task : job.spec.tasks) {
    TaskUsage t;
    if (!task.template_priority_class_name.empty() && priority_of) {
      t.priority = priority_of(task.template_priority_class_name).value_or(0);
    }
    t.replicas = task.replicas;
    t.min_available = task.min_available;
    t.usage = template_usage(task.pod_template);
    tasks.push_back(std::move(t));
    total_min += task.min_available.value_or(task.replicas);
  }
  if (job.spec.min_available < total_min) {
    return first_count_resources(std::move(tasks), job.spec.min_available);
  }
  return min_then_spare_resources(std::move(tasks), job.spec.min_available);
}

}  // namespace vc::controllers::job
