#include "controllers/cronjob/schedule_times.h"

#include <chrono>

namespace vc::controllers::cronjob {
namespace {

using std::chrono::seconds;

// Schedules step in whole seconds; a time with a fraction starts from its second.
std::int64_t unix_floor(api::TimePoint t) {
  return std::chrono::floor<seconds>(t.time_since_epoch()).count();
}

api::TimePoint at_unix(std::int64_t s) {
  return api::TimePoint(seconds(s));
}

constexpr const char* kTooClose = "time difference between two schedules is less than 1 second";

}  // namespace

MostRecent most_recent_schedule_time(const ScheduleClock& clock, api::TimePoint now,
                                     const cron::Schedule& schedule, bool include_deadline) {
  MostRecent out;
  out.earliest = clock.last_schedule.value_or(clock.created);
  if (include_deadline && clock.starting_deadline_s) {
    const api::TimePoint deadline = now - seconds(*clock.starting_deadline_s);
    if (deadline > out.earliest) out.earliest = deadline;
  }
  // A schedule with no run in the next five years (robfig's zero time) cannot be counted.
  const auto first = schedule.next(unix_floor(out.earliest));
  if (!first) {
    out.error = kTooClose;
    return out;
  }
  if (now < at_unix(*first)) return out;
  const auto second = schedule.next(*first);
  if (!second) {
    out.error = kTooClose;
    return out;
  }
  if (now < at_unix(*second)) {
    out.time = at_unix(*first);
    return out;
  }
  // Several runs went by: jump close to the end instead of stepping through all of them (a
  // year of minutes is half a million steps), then step to the last one at or before now.
  const std::int64_t between = *second - *first;
  if (between < 1) {
    out.error = kTooClose;
    return out;
  }
  const std::int64_t count = (unix_floor(now) - *first) / between + 1;
  const std::int64_t now_s = unix_floor(now);
  std::optional<std::int64_t> latest;
  for (auto t = schedule.next(*first + (count - 2) * between); t && *t <= now_s;
       t = schedule.next(*t)) {
    latest = t;
  }
  out.missed = count > 100 ? Missed::kMany : (count > 0 ? Missed::kFew : Missed::kNone);
  if (latest) out.time = at_unix(*latest);
  return out;
}

MostRecent next_schedule_time(const ScheduleClock& clock, api::TimePoint now,
                              const cron::Schedule& schedule) {
  MostRecent r = most_recent_schedule_time(clock, now, schedule, true);
  if (r.time && *r.time > now) r.time.reset();
  return r;
}

std::chrono::milliseconds next_requeue_delay(const ScheduleClock& clock, api::TimePoint now,
                                             const cron::Schedule& schedule) {
  const MostRecent r = most_recent_schedule_time(clock, now, schedule, false);
  api::TimePoint from = now;
  if (r.error.empty()) {
    if (r.time) {
      from = *r.time;
    } else if (r.missed == Missed::kNone) {
      from = r.earliest;
    }
  }
  const auto next = schedule.next(unix_floor(from));
  // No next run (robfig's zero time): Volcano's delay is then far in the past, which queues
  // the key at once.
  if (!next) return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(
      at_unix(*next) + std::chrono::milliseconds(100) - now);
}

}  // namespace vc::controllers::cronjob
