#pragma once
// Lease timestamps are metav1.MicroTime: RFC 3339 in UTC with exactly six fractional digits
// ("2006-01-02T15:04:05.000000Z"). Formatting and parsing live in common/api/time.h; this header
// adds what is particular to leases.

#include <chrono>

#include "common/api/time.h"

namespace vc::kube::leaderelection {

using WallTime = std::chrono::system_clock::time_point;
using api::format_micro_time;
using api::parse_time;

// Drops what MicroTime cannot hold, so a record we write compares equal to the one read back.
inline WallTime truncate_to_micros(WallTime t) {
  return std::chrono::floor<std::chrono::microseconds>(t);
}

}  // namespace vc::kube::leaderelection
