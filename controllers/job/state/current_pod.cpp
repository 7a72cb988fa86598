#include "controllers/job/state/current_pod.h"

#include <charconv>
#include <string_view>

namespace vc::controllers::job {

std::optional<std::int32_t> pod_job_version(const views::PodView& pod) {
  const std::string* annotation = pod.annotation(keys::kJobVersion);
  if (annotation == nullptr) return std::nullopt;
  std::string_view s = *annotation;
  if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
    if (!s.empty() && s.front() == '-') return std::nullopt;
  }
  std::int32_t value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

bool counts_for_task(const Job& job, const views::PodView& pod) {
  if (pod.deletion_timestamp) return false;
  if (pod.phase == "Succeeded" || pod.phase == "Failed") return true;
  const std::optional<std::int32_t> version = pod_job_version(pod);
  return !version || *version >= job.status.version;
}

}  // namespace vc::controllers::job
