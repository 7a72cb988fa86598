#pragma once
// When a CronJob should have run and when it runs next (spec controller-manager.md §5.4): the
// arithmetic of Kubernetes' CronJob controller, which Volcano's follows, on whole-second
// schedule times and a `now` with sub-second precision.
//
// A CronJob's clock starts at its last scheduled run (status.lastScheduleTime), or at its
// creation. A run is "missed" when its time has passed and no Job was made for it; after
// downtime only the most recent missed run is started (no burst of catch-up Jobs), and
// spec.startingDeadlineSeconds, when set, ignores runs older than that many seconds.
//
// Threads: pure functions.

#include <cstdint>
#include <optional>
#include <string>

#include "common/api/time.h"
#include "common/cron/schedule.h"

namespace vc::controllers::cronjob {

// How many runs went by unmet; more than 100 is reported (TooManyMissedTimes).
enum class Missed { kNone, kFew, kMany };

struct ScheduleClock {
  api::TimePoint created{};                           // metadata.creationTimestamp
  std::optional<api::TimePoint> last_schedule{};      // status.lastScheduleTime
  std::optional<std::int64_t> starting_deadline_s{};  // spec.startingDeadlineSeconds
};

struct MostRecent {
  api::TimePoint earliest;             // where the search started
  std::optional<api::TimePoint> time;  // the latest run time at or before now, if any unmet
  Missed missed = Missed::kNone;
  std::string error;  // "" or why the schedule cannot be counted
};

// The most recent run time not yet processed, at or before now. With include_deadline the
// search starts no earlier than now - startingDeadlineSeconds.
MostRecent most_recent_schedule_time(const ScheduleClock& clock, api::TimePoint now,
                                     const cron::Schedule& schedule, bool include_deadline);

// The run to start now, if any (most_recent_schedule_time with the deadline): nullopt when
// nothing is due. `missed` and `error` are passed on for the caller's events.
MostRecent next_schedule_time(const ScheduleClock& clock, api::TimePoint now,
                              const cron::Schedule& schedule);

// How long until the key should be processed again: 100 ms after the next run time following
// the most recent one (never negative is not promised: a past time gives a negative delay,
// which queues at once, as Volcano's does).
std::chrono::milliseconds next_requeue_delay(const ScheduleClock& clock, api::TimePoint now,
                                             const cron::Schedule& schedule);

}  // namespace vc::controllers::cronjob
