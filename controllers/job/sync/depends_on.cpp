#include "controllers/job/sync/depends_on.h"

#include <algorithm>

#include "controllers/job/state/current_pod.h"
#include "controllers/job/sync/plan.h"

namespace vc::controllers::job {
namespace {

const TaskSpec* find_task(const JobSpec& spec, std::string_view name) {
  auto it = std::find_if(spec.tasks.begin(), spec.tasks.end(),
                         [&](const TaskSpec& t) { return t.name == name; });
  return it == spec.tasks.end() ? nullptr : &*it;
}

// Volcano checks every regular container status, so a Running pod that reports none is ready.
bool containers_ready(const views::PodView& pod) {
  return std::all_of(pod.container_statuses.begin(), pod.container_statuses.end(),
                     [](const views::ContainerStatusView& cs) { return cs.init || cs.ready; });
}

// A terminating dependency pod (one we just killed included), or a running one left from the job
// version before a restart, is on its way out: it opens no gate (current_pod.h).
bool pod_ready(const Job& job, const views::PodView& pod) {
  if (!counts_for_task(job, pod)) return false;
  if (pod.phase == "Succeeded") return true;
  return pod.phase == "Running" && containers_ready(pod);
}

bool dependency_ready(const Job& job, const std::string& dependency, const PodLookup& pod_of) {
  const TaskSpec* dep = find_task(job.spec, dependency);
  if (dep == nullptr || !dep->min_available) return true;
  std::int32_t ready = 0;
  for (std::int32_t index = 0; index < dep->replicas; ++index) {
    views::PodViewPtr pod = pod_of(job_pod_name(job.name, dep->name, index));
    if (pod && pod_ready(job, *pod)) ++ready;
  }
  return ready >= *dep->min_available;
}

}  // namespace

bool depends_on_ready(const Job& job, const TaskSpec& task, const PodLookup& pod_of) {
  if (!task.depends_on) return true;
  const DependsOn& deps = *task.depends_on;
  auto ready = [&](const std::string& name) { return dependency_ready(job, name, pod_of); };
  if (deps.name.size() > 1 && deps.iteration == "any") {
    return std::any_of(deps.name.begin(), deps.name.end(), ready);
  }
  return std::all_of(deps.name.begin(), deps.name.end(), ready);
}

}  // namespace vc::controllers::job
