#pragma once
// Go's time.Duration text: time.ParseDuration, which decodes duration flags and metav1.Duration
// fields (a Job policy's `timeout`, a CronJob's `@every` schedule), and Duration.String, which
// prints them (`status.runningDuration`, flag defaults in --help).
// golden_test.cpp checks both against Go itself.
//
// Thread-safety: pure functions.

#include <chrono>
#include <string>
#include <string_view>

#include "common/api/expected.h"

namespace vc::go {

// time.ParseDuration: an optional sign, then <decimal><unit> parts ("300ms", "-1.5h", "1h30m",
// "2us"); units ns, us (µs, μs), ms, s, m, h; "0" alone needs no unit. Errors carry Go's text
// and its own quoting of the input: `time: invalid duration "5x"`,
// `time: missing unit in duration "5"`, `time: unknown unit "d" in duration "1d"`.
api::Expected<std::chrono::nanoseconds> parse_duration(std::string_view s);

// time.Duration.String: "0s", "1.5s", "1m30s", "1h0m0s", "500ms", "2µs".
std::string format_duration(std::chrono::nanoseconds d);

}  // namespace vc::go
