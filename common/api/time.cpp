#include "common/api/time.h"

#include <cstdint>
#include <cstdio>

namespace vc::api {
namespace {

using namespace std::chrono;

// "YYYY-MM-DDTHH:MM:SS" of the second containing t.
std::string format_seconds(sys_seconds t) {
  const auto day = floor<days>(t);
  const year_month_day ymd(day);
  const hh_mm_ss<seconds> hms(t - day);
  char buf[80];
  std::snprintf(buf, sizeof(buf), "%04d-%02u-%02uT%02d:%02d:%02d", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                static_cast<int>(hms.seconds().count()));
  return buf;
}

// Reads exactly n digits at s[pos], advancing pos.
bool read_digits(std::string_view s, std::size_t& pos, int n, int& out) {
  if (pos + static_cast<std::size_t>(n) > s.size()) return false;
  out = 0;
  for (int i = 0; i < n; ++i) {
    const char c = s[pos++];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  return true;
}

bool expect(std::string_view s, std::size_t& pos, char a, char b = '\0') {
  if (pos >= s.size() || (s[pos] != a && (b == '\0' || s[pos] != b))) return false;
  ++pos;
  return true;
}

}  // namespace

std::string format_rfc3339(TimePoint t) {
  return format_seconds(floor<seconds>(t)) + "Z";
}

std::string format_micro_time(TimePoint t) {
  const auto micros = floor<microseconds>(t);
  const auto secs = floor<seconds>(micros);
  char frac[32];
  std::snprintf(frac, sizeof(frac), ".%06lldZ", static_cast<long long>((micros - secs).count()));
  return format_seconds(secs) + frac;
}

std::optional<TimePoint> parse_time(std::string_view s) {
  std::size_t pos = 0;
  int y, mo, d, h, mi, sec;
  if (!read_digits(s, pos, 4, y) || !expect(s, pos, '-') || !read_digits(s, pos, 2, mo) ||
      !expect(s, pos, '-') || !read_digits(s, pos, 2, d) || !expect(s, pos, 'T', 't') ||
      !read_digits(s, pos, 2, h) || !expect(s, pos, ':') || !read_digits(s, pos, 2, mi) ||
      !expect(s, pos, ':') || !read_digits(s, pos, 2, sec)) {
    return std::nullopt;
  }
  std::int64_t nanos = 0;
  if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
    ++pos;
    const std::size_t start = pos;
    int kept = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (kept < 9) {
        nanos = nanos * 10 + (s[pos] - '0');
        ++kept;
      }
      ++pos;
    }
    if (pos == start) return std::nullopt;
    for (; kept < 9; ++kept) nanos *= 10;
  }
  int offset_seconds = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    const int sign = s[pos++] == '-' ? -1 : 1;
    int oh, om;
    if (!read_digits(s, pos, 2, oh) || !expect(s, pos, ':') || !read_digits(s, pos, 2, om) ||
        oh > 23 || om > 59) {
      return std::nullopt;
    }
    offset_seconds = sign * (oh * 3600 + om * 60);
  } else {
    return std::nullopt;
  }
  if (pos != s.size() || h > 23 || mi > 59 || sec > 59) return std::nullopt;

  const year_month_day ymd{year(y), month(static_cast<unsigned>(mo)),
                           day(static_cast<unsigned>(d))};
  if (!ymd.ok()) return std::nullopt;
  const std::int64_t epoch_seconds =
      static_cast<std::int64_t>(sys_days(ymd).time_since_epoch() / std::chrono::seconds(1)) +
      h * 3600 + mi * 60 + sec - offset_seconds;
  // The clock's duration is nanoseconds with libstdc++: keep the instant within int64 of them.
  using ClockDuration = TimePoint::duration;
  const __int128 total =
      static_cast<__int128>(epoch_seconds) * 1000000000 + static_cast<__int128>(nanos);
  const __int128 ticks = total * ClockDuration::period::den /
                         (static_cast<__int128>(1000000000) * ClockDuration::period::num);
  if (ticks > INT64_MAX || ticks < INT64_MIN) return std::nullopt;
  return TimePoint(ClockDuration(static_cast<ClockDuration::rep>(ticks)));
}

}  // namespace vc::api
