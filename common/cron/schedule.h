#pragma once
// Cron schedules as Volcano reads a CronJob's spec.schedule: robfig/cron v3.0.1's ParseStandard
// and its schedules' Next. One parser for the webhook (accept or refuse) and the CronJob
// controller (when is the next run).
//
// Accepted: five fields (minute, hour, day of month, month, day of week) of "*", "?", numbers,
// case-insensitive month and weekday names, "a-b" ranges, "/step" and comma lists; the
// descriptors @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly and
// "@every <Go duration>"; an optional "TZ=<zone> " or "CRON_TZ=<zone> " prefix. Errors carry
// robfig's text ("expected exactly 5 fields, found 4: [* * * *]").
//
// Times are Unix seconds: cron works in whole seconds, and a caller with a finer time passes its
// floor (robfig drops the fraction before it steps).
//
// Golden tests: golden/main.go asks robfig itself (golden_test.cpp).
//
// Threads: a Schedule is an immutable value; parse reads the tz database for a TZ prefix.

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "common/api/expected.h"
#include "common/go/time_zone.h"

namespace vc::cron {

class Schedule {
 public:
  // ParseStandard(spec). Without a TZ prefix the schedule runs in `local` (robfig's time.Local:
  // the process's zone; callers pass go::Location::load("Local")).
  static api::Expected<Schedule> parse(std::string_view spec,
                                       std::shared_ptr<const go::Location> local);

  // Schedule.Next: the first activation strictly after `unix`. nullopt where robfig answers the
  // zero time: a field combination no date within five years matches ("0 0 30 2 *").
  std::optional<std::int64_t> next(std::int64_t unix) const;

  const go::Location& location() const { return *location_; }

 private:
  Schedule() = default;
  std::optional<std::int64_t> next_in_fields(std::int64_t unix) const;

  // Bit i set: value i matches. kStar marks a field written "*" or "?" (day matching differs).
  std::uint64_t minute_ = 0;
  std::uint64_t hour_ = 0;
  std::uint64_t day_of_month_ = 0;
  std::uint64_t month_ = 0;
  std::uint64_t day_of_week_ = 0;
  std::int64_t every_seconds_ = 0;  // > 0: "@every", a constant delay instead of the fields
  std::shared_ptr<const go::Location> location_;
};

}  // namespace vc::cron
