#include "controllers/job/derive/min_resources.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "controllers/views/pod_resources.h"

namespace vc::controllers::job {

namespace {

using nlohmann::json;

constexpr std::string_view kRequestsPrefix = "requests.";
constexpr std::string_view kLimitsPrefix = "limits.";
constexpr std::string_view kHugePagesPrefix = "hugepages-";

// Kubernetes' IsNativeResource: no domain, or a kubernetes.io domain.
bool is_native(std::string_view name) {
  return name.find('/') == std::string_view::npos ||
         name.find("kubernetes.io/") != std::string_view::npos;
}

// Kubernetes' IsExtendedResourceName for names the API server already validated.
bool is_extended(std::string_view name) {
  return !is_native(name) && !name.starts_with(kRequestsPrefix);
}

// Kubernetes' quota Add into `into`: a name seen for the first time takes a copy (keeping its
// printed text), a name already present is summed (printing canonically).
void add_into(api::ResourceList& into, const api::ResourceList& other) {
  for (const auto& [name, q] : other) {
    auto [it, inserted] = into.emplace(name, q);
    if (!inserted) it->second += q;
  }
}

// Volcano's calTaskRequests: the usage added `count` times (nothing for count <= 0).
api::ResourceList times(const api::ResourceList& usage, std::int32_t count) {
  api::ResourceList out;
  for (std::int32_t i = 0; i < count; ++i) add_into(out, usage);
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

}  // namespace

api::ResourceList pod_quota_usage(const json& pod_spec) {
  api::ResourceList usage;
  usage.emplace("count/pods", api::Quantity::from_int(1));
  usage.emplace("pods", api::Quantity::from_int(1));
  const api::ResourceList requests = views::pod_requests(pod_spec);
  const api::ResourceList limits = views::pod_limits(pod_spec);
  for (const char* name : {"cpu", "memory", "ephemeral-storage"}) {
    if (auto r = requests.find(name); r != requests.end()) {
      usage[name] = r->second;
      usage[std::string(kRequestsPrefix) + name] = r->second;
    }
    if (auto l = limits.find(name); l != limits.end()) {
      usage[std::string(kLimitsPrefix) + name] = l->second;
    }
  }
  for (const auto& [name, q] : requests) {
    if (name.starts_with(kHugePagesPrefix)) {
      usage[name] = q;
      usage[std::string(kRequestsPrefix) + name] = q;
    }
    if (is_extended(name)) usage[std::string(kRequestsPrefix) + name] = q;
  }
  // Volcano's GetPodQuotaUsage: requests.<X> of a non-native X also counts as <X>.
  std::vector<std::pair<std::string, api::Quantity>> unprefixed;
  for (const auto& [name, q] : usage) {
    if (name.starts_with(kRequestsPrefix) && !is_native(name)) {
      unprefixed.emplace_back(name.substr(kRequestsPrefix.size()), q);
    }
  }
  for (auto& [name, q] : unprefixed) usage[name] = std::move(q);
  return usage;
}

api::ResourceList first_count_resources(std::vector<TaskUsage> tasks, std::int32_t count) {
  sort_by_priority(tasks);
  api::ResourceList total;
  for (const TaskUsage& t : tasks) {
    if (count <= t.replicas) {
      add_into(total, times(t.usage, count));
      break;
    }
    add_into(total, times(t.usage, t.replicas));
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
    add_into(total, times(t.usage, n));
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
      add_into(total, times(t.usage, spare));
      left -= spare;
    } else {
      add_into(total, times(t.usage, left));
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
    json parsed = json::parse(task.template_text, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) {
      throw std::invalid_argument("spec.tasks[" + task.name + "].template: not valid JSON");
    }
    t.usage = pod_quota_usage(spec_of(parsed));
    tasks.push_back(std::move(t));
    total_min += task.min_available.value_or(task.replicas);
  }
  if (job.spec.min_available < total_min) {
    return first_count_resources(std::move(tasks), job.spec.min_available);
  }
  return min_then_spare_resources(std::move(tasks), job.spec.min_available);
}

}  // namespace vc::controllers::job
