#include "controllers/job/model/job.h"

#include <algorithm>
#include <cstdint>

namespace vc::controllers::job {

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

const std::string* Job::annotation(std::string_view key) const {
  auto it = std::lower_bound(annotations.begin(), annotations.end(), key,
                             [](const auto& a, std::string_view k) { return a.first < k; });
  if (it == annotations.end() || it->first != key) return nullptr;
  return &it->second;
}

}  // namespace vc::controllers::job
