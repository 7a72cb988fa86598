#include "controllers/job/sync/status_finish.h"

#include <algorithm>

#include "common/go/duration.h"

namespace vc::controllers::job {
bool status_changed(const JobStatus& stored, const JobStatus& next) {
  return !(stored == next);
}

void touch_transition(JobStatus& status, api::TimePoint now) {
  status.last_transition_time = now;
  std::erase_if(status.conditions, [&](const JobCondition& c) { return c.status == status.phase; });
  status.conditions.push_back({status.phase, now});
}

void set_running_duration(JobStatus& status, const Job& job) {
  if (!status.last_transition_time || !job.creation_timestamp) return;
  status.running_duration =
      go::format_duration(std::chrono::duration_cast<std::chrono::nanoseconds>(
          *status.last_transition_time - *job.creation_timestamp));
}

}  // namespace vc::controllers::job
