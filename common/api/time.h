#pragma once
// Timestamps as Kubernetes writes and reads them: metav1.Time is RFC 3339 in UTC with whole
// seconds ("2024-01-02T03:04:05Z"), metav1.MicroTime has exactly six fraction digits
// ("2024-01-02T03:04:05.123456Z", used by Lease renewTime and events.k8s.io eventTime).
// Formatting truncates toward the past, as Go's time.Format does.
//
// parse_time accepts both forms and anything else RFC 3339 allows: any number of fraction
// digits (beyond nanoseconds they are dropped), 'Z' or a +hh:mm/-hh:mm offset, and lower-case
// 't'/'z'. It rejects impossible dates (2023-02-29), hours above 23, minutes or seconds above
// 59, and instants that system_clock cannot hold (outside about 1677-2262 with libstdc++'s
// nanosecond clock) — so Go's zero time "0001-01-01T00:00:00Z" does not parse.
//
// Threads: pure functions, callable from any thread.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace vc::api {

using TimePoint = std::chrono::system_clock::time_point;

// "2024-01-02T03:04:05Z".
std::string format_rfc3339(TimePoint t);
// "2024-01-02T03:04:05.123456Z".
std::string format_micro_time(TimePoint t);
// Either of the above, or any RFC 3339 timestamp; nullopt when malformed or out of range.
std::optional<TimePoint> parse_time(std::string_view text);

}  // namespace vc::api
