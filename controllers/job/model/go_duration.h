#pragma once
// Go's time.ParseDuration, which is how metav1.Duration fields (policy `timeout`, status
// `runningDuration`) decode: an optional sign, then one or more <decimal><unit> parts such as
// "1h2m3.5s", "300ms", "-1.5h"; units ns, us, µs, μs, ms, s, m, h; "0" alone needs no unit.
// Values beyond the int64 nanosecond range are rejected, as Go rejects them.
//
// Threads: pure functions, callable from any thread.

#include <chrono>
#include <string_view>

#include "common/api/expected.h"

namespace vc::controllers::job {

// The duration in nanoseconds, or Go's error text, e.g. `time: invalid duration "5x"`,
// `time: missing unit in duration "5"`, `time: unknown unit "d" in duration "1d"`.
api::Expected<std::chrono::nanoseconds> parse_go_duration(std::string_view text);

}  // namespace vc::controllers::job
