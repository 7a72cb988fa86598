#pragma once
// Accept/reject of cron schedules as robfig/cron v3.0.1's ParseStandard decides: five fields
// (minute, hour, day of month, month, day of week) with "*", "?", "a-b", "/step", comma lists
// and case-insensitive month and weekday names; the descriptors @yearly, @annually, @monthly,
// @weekly, @daily, @midnight, @hourly and "@every <Go duration>"; an optional "TZ=<zone> " or
// "CRON_TZ=<zone> " prefix.
//
// Threads: pure function (a TZ prefix reads the tz database).

#include <optional>
#include <string>
#include <string_view>

namespace vc::webhook::jobs {

// nullopt when the schedule parses, else robfig's error text (for logs and tests; the webhook's
// own message is fixed).
std::optional<std::string> cron_schedule_error(std::string_view spec);

}  // namespace vc::webhook::jobs
