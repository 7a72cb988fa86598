#include "common/cron/schedule.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <string>
#include <vector>

#include "common/go/duration.h"
#include "common/go/strconv.h"

namespace vc::cron {
namespace {

constexpr std::uint64_t kStar = std::uint64_t{1} << 63;

struct Bounds {
  std::uint64_t min;
  std::uint64_t max;
  const std::array<std::string_view, 12>* names;  // nullptr, or the names of min, min+1, ...
};

constexpr std::array<std::string_view, 12> kMonthNames{"jan", "feb", "mar", "apr", "may", "jun",
                                                       "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr std::array<std::string_view, 12> kDayNames{"sun", "mon", "tue", "wed", "thu", "fri",
                                                     "sat", "",    "",    "",    "",    ""};

constexpr Bounds kMinutes{0, 59, nullptr};
constexpr Bounds kHours{0, 23, nullptr};
constexpr Bounds kDaysOfMonth{1, 31, nullptr};
constexpr Bounds kMonths{1, 12, &kMonthNames};
constexpr Bounds kDaysOfWeek{0, 6, &kDayNames};

using Error = api::Unexpected;

bool is_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    const auto pos = s.find(sep);
    out.push_back(s.substr(0, pos));
    if (pos == std::string_view::npos) return out;
    s.remove_prefix(pos + 1);
  }
}

// Go's strings.Fields.
std::vector<std::string_view> fields_of(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    const std::size_t start = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

// The list as Go's %s prints a []string: "[a b c]".
std::string go_list(const std::vector<std::string_view>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ' ';
    out += items[i];
  }
  return out + "]";
}

// strconv.Atoi, then "no negatives".
api::Expected<std::uint64_t> parse_number(std::string_view expr) {
  const go::IntParse n = go::parse_int_full(expr, 10, 64);
  if (n.error != go::NumError::None) {
    return Error{"failed to parse int from " + std::string(expr) + ": strconv.Atoi: parsing " +
                 go::quote(expr) + ": " +
                 (n.error == go::NumError::Range ? "value out of range" : "invalid syntax")};
  }
  if (n.value < 0) {
    return Error{"negative number (" + std::to_string(n.value) +
                 ") not allowed: " + std::string(expr)};
  }
  return static_cast<std::uint64_t>(n.value);
}

api::Expected<std::uint64_t> parse_number_or_name(std::string_view expr, const Bounds& b) {
  if (b.names != nullptr) {
    std::string lower(expr);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (std::size_t i = 0; i < b.names->size(); ++i) {
      if (!(*b.names)[i].empty() && (*b.names)[i] == lower) return b.min + i;
    }
  }
  return parse_number(expr);
}

std::uint64_t bits_between(std::uint64_t low, std::uint64_t high, std::uint64_t step) {
  std::uint64_t bits = 0;
  for (std::uint64_t i = low; i <= high; i += step) bits |= std::uint64_t{1} << i;
  return bits;
}

// One range of a field: "*", "?", "n", "a-b", each with an optional "/step".
api::Expected<std::uint64_t> range_bits(std::string_view expr, const Bounds& b) {
  const auto range_and_step = split(expr, '/');
  const auto low_and_high = split(range_and_step[0], '-');
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  std::uint64_t star = 0;
  if (low_and_high[0] == "*" || low_and_high[0] == "?") {
    low = b.min;
    high = b.max;
    star = kStar;
  } else {
    auto first = parse_number_or_name(low_and_high[0], b);
    if (!first) return first;
    low = *first;
    if (low_and_high.size() == 1) {
      high = low;
    } else if (low_and_high.size() == 2) {
      auto second = parse_number_or_name(low_and_high[1], b);
      if (!second) return second;
      high = *second;
    } else {
      return Error{"too many hyphens: " + std::string(expr)};
    }
  }
  std::uint64_t step = 1;
  if (range_and_step.size() == 2) {
    auto parsed = parse_number(range_and_step[1]);
    if (!parsed) return parsed;
    step = *parsed;
    if (low_and_high.size() == 1) high = b.max;  // "n/step" means "n-max/step"
    if (step > 1) star = 0;                      // "*/2" is not "every value"
  } else if (range_and_step.size() > 2) {
    return Error{"too many slashes: " + std::string(expr)};
  }
  const auto n = [](std::uint64_t v) { return std::to_string(v); };
  if (low < b.min) {
    return Error{"beginning of range (" + n(low) + ") below minimum (" + n(b.min) +
                 "): " + std::string(expr)};
  }
  if (high > b.max) {
    return Error{"end of range (" + n(high) + ") above maximum (" + n(b.max) +
                 "): " + std::string(expr)};
  }
  if (low > high) {
    return Error{"beginning of range (" + n(low) + ") beyond end of range (" + n(high) +
                 "): " + std::string(expr)};
  }
  if (step == 0) return Error{"step of range should be a positive number: " + std::string(expr)};
  return bits_between(low, high, step) | star;
}

// A comma-separated list of ranges (empty pieces are skipped, as strings.FieldsFunc does).
api::Expected<std::uint64_t> field_bits(std::string_view field, const Bounds& b) {
  std::uint64_t bits = 0;
  for (std::string_view expr : split(field, ',')) {
    if (expr.empty()) continue;
    auto r = range_bits(expr, b);
    if (!r) return r;
    bits |= *r;
  }
  return bits;
}

std::uint64_t all_of(const Bounds& b) {
  return bits_between(b.min, b.max, 1) | kStar;
}

bool has(std::uint64_t bits, int value) {
  return (bits >> value) & 1U;
}

}  // namespace

api::Expected<Schedule> Schedule::parse(std::string_view spec,
                                        std::shared_ptr<const go::Location> local) {
  if (spec.empty()) return Error{"empty spec string"};
  Schedule s;
  s.location_ = std::move(local);
  if (spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=")) {
    // robfig slices up to the first space; without one it would panic, so that is an error.
    const auto space = spec.find(' ');
    if (space == std::string_view::npos) return Error{"missing schedule after time zone"};
    const auto eq = spec.find('=');
    const std::string_view zone = spec.substr(eq + 1, space - eq - 1);
    auto loc = go::Location::load(zone);
    if (!loc) return Error{"provided bad location " + std::string(zone) + ": " + loc.error()};
    s.location_ = *loc;
    spec = trim(spec.substr(space));
  }
  if (spec.starts_with("@")) {
    static constexpr std::array<std::string_view, 2> kYearly{"@yearly", "@annually"};
    const std::uint64_t first_minute = 1;      // minute 0
    const std::uint64_t first_hour = 1;        // hour 0
    const std::uint64_t first_day = 1U << 1U;  // day 1
    const std::uint64_t january = 1U << 1U;    // month 1
    const std::uint64_t sunday = 1;            // weekday 0
    if (std::find(kYearly.begin(), kYearly.end(), spec) != kYearly.end()) {
      s.minute_ = first_minute, s.hour_ = first_hour, s.day_of_month_ = first_day;
      s.month_ = january, s.day_of_week_ = all_of(kDaysOfWeek);
    } else if (spec == "@monthly") {
      s.minute_ = first_minute, s.hour_ = first_hour, s.day_of_month_ = first_day;
      s.month_ = all_of(kMonths), s.day_of_week_ = all_of(kDaysOfWeek);
    } else if (spec == "@weekly") {
      s.minute_ = first_minute, s.hour_ = first_hour, s.day_of_month_ = all_of(kDaysOfMonth);
      s.month_ = all_of(kMonths), s.day_of_week_ = sunday;
    } else if (spec == "@daily" || spec == "@midnight") {
      s.minute_ = first_minute, s.hour_ = first_hour, s.day_of_month_ = all_of(kDaysOfMonth);
      s.month_ = all_of(kMonths), s.day_of_week_ = all_of(kDaysOfWeek);
    } else if (spec == "@hourly") {
      s.minute_ = first_minute, s.hour_ = all_of(kHours), s.day_of_month_ = all_of(kDaysOfMonth);
      s.month_ = all_of(kMonths), s.day_of_week_ = all_of(kDaysOfWeek);
    } else if (constexpr std::string_view kEvery = "@every "; spec.starts_with(kEvery)) {
      auto d = go::parse_duration(spec.substr(kEvery.size()));
      if (!d) {
        return Error{"failed to parse duration " + std::string(spec) + ": " + d.error()};
      }
      // Whole seconds, at least one (robfig's Every).
      s.every_seconds_ =
          std::max<std::int64_t>(1, std::chrono::duration_cast<std::chrono::seconds>(*d).count());
    } else {
      return Error{"unrecognized descriptor: " + std::string(spec)};
    }
    return s;
  }
  const auto fields = fields_of(spec);
  if (fields.size() != 5) {
    return Error{"expected exactly 5 fields, found " + std::to_string(fields.size()) + ": " +
                 go_list(fields)};
  }
  const std::array<const Bounds*, 5> bounds{&kMinutes, &kHours, &kDaysOfMonth, &kMonths,
                                            &kDaysOfWeek};
  const std::array<std::uint64_t*, 5> out{&s.minute_, &s.hour_, &s.day_of_month_, &s.month_,
                                          &s.day_of_week_};
  for (std::size_t i = 0; i < fields.size(); ++i) {
    auto bits = field_bits(fields[i], *bounds[i]);
    if (!bits) return Error{bits.error()};
    *out[i] = *bits;
  }
  return s;
}

std::optional<std::int64_t> Schedule::next(std::int64_t unix) const {
  if (every_seconds_ > 0) return unix + every_seconds_;
  return next_in_fields(unix);
}

// Steps forward field by field from the next second, largest field first, the way robfig does:
// a field that does not match moves time to the start of its next value (the smaller fields
// reset on the first move), and a field that wraps (month to January, day to the 1st, hour to
// midnight, minute to :00) starts the search over from the month. Civil steps (a month, a day)
// go through the zone, so a day that a DST change makes 23 or 25 hours long is still one day;
// hour and minute steps are absolute. Gives up five years after the starting year.
std::optional<std::int64_t> Schedule::next_in_fields(std::int64_t unix) const {
  const go::Location& loc = *location_;
  std::int64_t t = unix + 1;  // seconds always match (robfig's standard parser fixes them at 0)
  go::CivilTime c = go::civil_time(t, loc);
  bool moved = false;
  const int year_limit = c.year + 5;
  const auto at = [&](std::int64_t when) {
    t = when;
    c = go::civil_time(t, loc);
  };
  const auto day_matches = [&] {
    const bool dom = has(day_of_month_, c.day);
    const bool dow = has(day_of_week_, c.weekday);
    // A "*" in either day field means both must match; otherwise either may.
    if ((day_of_month_ & kStar) != 0 || (day_of_week_ & kStar) != 0) return dom && dow;
    return dom || dow;
  };

wrap:
  if (c.year > year_limit) return std::nullopt;

  while (!has(month_, c.month)) {
    if (!moved) {
      moved = true;
      at(go::date_unix(c.year, c.month, 1, 0, 0, 0, loc));
    }
    at(go::date_unix(c.year, c.month + 1, c.day, c.hour, c.minute, c.second, loc));
    if (c.month == 1) goto wrap;
  }

  while (!day_matches()) {
    if (!moved) {
      moved = true;
      at(go::date_unix(c.year, c.month, c.day, 0, 0, 0, loc));
    }
    at(go::date_unix(c.year, c.month, c.day + 1, c.hour, c.minute, c.second, loc));
    // A DST change can leave the new day off midnight: pull it back to the day's start (or,
    // past noon, forward to the next day's).
    if (c.hour != 0) at(t + 3600 * (c.hour > 12 ? 24 - c.hour : -c.hour));
    if (c.day == 1) goto wrap;
  }

  while (!has(hour_, c.hour)) {
    if (!moved) {
      moved = true;
      at(go::date_unix(c.year, c.month, c.day, c.hour, 0, 0, loc));
    }
    at(t + 3600);
    if (c.hour == 0) goto wrap;
  }

  while (!has(minute_, c.minute)) {
    if (!moved) {
      moved = true;
      at(t - (((t % 60) + 60) % 60));  // Truncate(time.Minute) is absolute
    }
    at(t + 60);
    if (c.minute == 0) goto wrap;
  }

  // Seconds: the standard parser allows only second 0.
  while (c.second != 0) {
    moved = true;
    at(t + 1);
    if (c.second == 0) goto wrap;
  }
  return t;
}

}  // namespace vc::cron
