#include "common/volcano/job.h"

#include <algorithm>
#include <cstdint>

namespace vc::volcano {

bool LifecyclePolicy::names_event(std::string_view e) const {
  return (!event.empty() && event == e) ||
         std::find(events.begin(), events.end(), e) != events.end();
}

std::int32_t JobSpec::total_replicas() const {
  // Go sums int32 with wrap-around; unsigned arithmetic gives the same result without UB.
  std::uint32_t sum = 0;
  for (const TaskSpec& t : tasks) sum += static_cast<std::uint32_t>(t.replicas);
  return static_cast<std::int32_t>(sum);
}

const TaskSpec* JobSpec::task(std::string_view name) const {
  for (const TaskSpec& t : tasks) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

}  // namespace vc::volcano
