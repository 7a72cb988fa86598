#include "controllers/job/sync/status_finish.h"

#include <algorithm>
#include <cstdint>

namespace vc::controllers::job {
namespace {

// Appends the decimal digits of v.
void append_int(std::string& out, std::uint64_t v) {
  out += std::to_string(v);
}

// Appends "." and the `digits` fraction digits of v (v < 10^digits) without trailing zeros;
// nothing when the fraction is zero.
void append_fraction(std::string& out, std::uint64_t v, int digits) {
  if (v == 0) return;
  std::string frac(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i) {
    frac[static_cast<std::size_t>(i)] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
  frac.erase(frac.find_last_not_of('0') + 1);
  out += '.';
  out += frac;
}

std::uint64_t pow10(int n) {
  std::uint64_t p = 1;
  while (n-- > 0) p *= 10;
  return p;
}

}  // namespace

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
  status.running_duration = go_duration_string(std::chrono::duration_cast<std::chrono::nanoseconds>(
      *status.last_transition_time - *job.creation_timestamp));
}

std::string go_duration_string(std::chrono::nanoseconds d) {
  const std::int64_t count = d.count();
  if (count == 0) return "0s";
  // Negate in unsigned arithmetic so that the most negative duration works too.
  const bool negative = count < 0;
  std::uint64_t u = static_cast<std::uint64_t>(count);
  if (negative) u = ~u + 1;

  std::string out;
  if (negative) out += '-';
  constexpr std::uint64_t kSecond = 1'000'000'000;
  if (u < kSecond) {
    // Below one second Go picks the largest unit that keeps an integer part: ns, µs or ms.
    int digits = 0;
    const char* unit = "ns";
    if (u >= 1'000'000) {
      digits = 6;
      unit = "ms";
    } else if (u >= 1'000) {
      digits = 3;
      unit = "\u00b5s";  // U+00B5 MICRO SIGN, as Go prints it
    }
    const std::uint64_t scale = pow10(digits);
    append_int(out, u / scale);
    append_fraction(out, u % scale, digits);
    out += unit;
    return out;
  }
  const std::uint64_t seconds = u / kSecond;
  const std::uint64_t hours = seconds / 3600;
  const std::uint64_t minutes = seconds / 60 % 60;
  if (hours > 0) {
    append_int(out, hours);
    out += 'h';
  }
  if (hours > 0 || minutes > 0) {
    append_int(out, minutes);
    out += 'm';
  }
  append_int(out, seconds % 60);
  append_fraction(out, u % kSecond, 9);
  out += 's';
  return out;
}

}  // namespace vc::controllers::job
