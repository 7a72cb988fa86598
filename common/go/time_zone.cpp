// Zones, their periods, civil time and time.Date (see time_zone.h); reading zone files from disk
// is in time_zone_load.cpp.

#include "common/go/time_zone.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vc::go {

// A footer rule as Go reads it: a standard zone, and optionally a daylight zone with the two
// yearly changes between them.
struct Location::Rule {
  enum class Kind { kJulian, kDayOfYear, kMonthWeekDay };
  // When in the year a change happens: Jn (1..365, February 29 never counted), n (0..365,
  // counted) or Mm.w.d (weekday d of week w of month m, week 5 the last), at `time` seconds of
  // local time (may be negative or beyond a day).
  struct Change {
    Kind kind = Kind::kMonthWeekDay;
    int day = 0;
    int week = 0;
    int month = 0;
    int time = 2 * 3600;
  };
  std::string std_abbrev, dst_abbrev;
  int std_offset = 0;  // seconds east of UTC, as in Zone
  int dst_offset = 0;
  bool has_dst = false;
  Change start, end;
};

namespace {

constexpr std::int64_t kFirstInstant = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kLastInstant = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kDay = 24 * 3600;

using Wide = __int128;

// Go's int64 arithmetic wraps; ours must not be undefined where it would.
std::int64_t wrapping_add(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

template <class T>
T floor_div(T a, T b) {
  const T q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

template <class T>
T floor_mod(T a, T b) {
  return a - floor_div(a, b) * b;
}

template <class T>
bool is_leap(T year) {
  return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

constexpr int kMonthDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

template <class T>
int days_in_month(int month, T year) {
  return month == 2 && is_leap(year) ? 29 : kMonthDays[month - 1];
}

// Days from 1970-01-01 to year-month-01 in the proleptic Gregorian calendar (year 0 exists),
// counting years from March so that February's leap day closes each (H. Hinnant's method).
Wide days_from_civil(Wide year, int month) {
  const Wide y = month <= 2 ? year - 1 : year;
  const Wide era = floor_div<Wide>(y, 400);
  const Wide year_of_era = y - era * 400;                            // [0, 399]
  const int day_of_march_year = (153 * ((month + 9) % 12) + 2) / 5;  // of the 1st, from March 1
  const Wide day_of_era =
      year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_march_year;
  return era * 146097 + day_of_era - 719468;
}

struct Date {
  std::int64_t year = 1970;
  int month = 1;
  int day = 1;
};

// The inverse: the date `days` days after 1970-01-01.
Date civil_from_days(std::int64_t days) {
  const std::int64_t shifted = days + 719468;  // days since 0000-03-01
  const std::int64_t era = floor_div<std::int64_t>(shifted, 146097);
  const std::int64_t day_of_era = shifted - era * 146097;  // [0, 146096]
  const std::int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const std::int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);  // from March 1
  const std::int64_t month_from_march = (5 * day_of_year + 2) / 153;
  Date d;
  d.day = static_cast<int>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  d.month = static_cast<int>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  d.year = year_of_era + era * 400 + (d.month <= 2 ? 1 : 0);
  return d;
}

// ---- Footer rules -------------------------------------------------------------------------

// Reads the pieces of a POSIX TZ string, accepting what Go's tzset accepts (which is laxer than
// POSIX in places: offsets up to 167 hours, ';' before the rules, any byte in a name).
class RuleText {
 public:
  explicit RuleText(std::string_view text) : s_(text) {}

  bool at_end() const { return s_.empty(); }
  bool next_is(char c) const { return !s_.empty() && s_.front() == c; }
  bool skip(char c) {
    if (!next_is(c)) return false;
    s_.remove_prefix(1);
    return true;
  }

  // A zone name: <anything but '>'>, or three or more bytes up to a digit, sign or comma.
  std::optional<std::string> name() {
    if (s_.empty()) return std::nullopt;
    if (s_.front() == '<') {
      const auto close = s_.find('>');
      if (close == std::string_view::npos) return std::nullopt;
      std::string out(s_.substr(1, close - 1));
      s_.remove_prefix(close + 1);
      return out;
    }
    const auto stop = s_.find_first_of("0123456789,+-");
    const std::size_t length = stop == std::string_view::npos ? s_.size() : stop;
    if (length < 3) return std::nullopt;
    std::string out(s_.substr(0, length));
    s_.remove_prefix(length);
    return out;
  }

  // A decimal number in [low, high], at least one digit.
  std::optional<int> number(int low, int high) {
    int value = 0;
    std::size_t digits = 0;
    while (digits < s_.size() && s_[digits] >= '0' && s_[digits] <= '9') {
      value = value * 10 + (s_[digits] - '0');
      if (value > high) return std::nullopt;
      ++digits;
    }
    if (digits == 0 || value < low) return std::nullopt;
    s_.remove_prefix(digits);
    return value;
  }

  // [+|-]hh[:mm[:ss]] in seconds, sign included.
  std::optional<int> clock() {
    const bool negative = next_is('-');
    if (!skip('-')) skip('+');
    auto hours = number(0, 24 * 7);
    if (!hours) return std::nullopt;
    int seconds = *hours * 3600;
    if (skip(':')) {
      auto minutes = number(0, 59);
      if (!minutes) return std::nullopt;
      seconds += *minutes * 60;
      if (skip(':')) {
        auto secs = number(0, 59);
        if (!secs) return std::nullopt;
        seconds += *secs;
      }
    }
    return negative ? -seconds : seconds;
  }

  // Jn, n or Mm.w.d, then optionally /time (2:00 when absent).
  std::optional<Location::Rule::Change> change() {
    using Kind = Location::Rule::Kind;
    Location::Rule::Change c;
    if (skip('J')) {
      auto day = number(1, 365);
      if (!day) return std::nullopt;
      c.kind = Kind::kJulian;
      c.day = *day;
    } else if (skip('M')) {
      auto month = number(1, 12);
      if (!month || !skip('.')) return std::nullopt;
      auto week = number(1, 5);
      if (!week || !skip('.')) return std::nullopt;
      auto weekday = number(0, 6);
      if (!weekday) return std::nullopt;
      c.kind = Kind::kMonthWeekDay;
      c.month = *month;
      c.week = *week;
      c.day = *weekday;
    } else {
      auto day = number(0, 365);
      if (!day) return std::nullopt;
      c.kind = Kind::kDayOfYear;
      c.day = *day;
    }
    if (skip('/')) {
      auto time = clock();
      if (!time) return std::nullopt;
      c.time = *time;
    }
    return c;
  }

 private:
  std::string_view s_;
};

// The rule `text` describes, or null where Go's tzset would fail on it. POSIX offsets count west
// of UTC; Zone's count east, hence the negations.
std::shared_ptr<const Location::Rule> parse_rule(std::string_view text) {
  RuleText in(text);
  auto rule = std::make_shared<Location::Rule>();
  auto std_name = in.name();
  if (!std_name) return nullptr;
  auto std_clock = in.clock();
  if (!std_clock) return nullptr;
  rule->std_abbrev = std::move(*std_name);
  rule->std_offset = -*std_clock;
  // Nothing more, or rules without a daylight zone: standard time for ever.
  if (in.at_end() || in.next_is(',')) return rule;

  auto dst_name = in.name();
  if (!dst_name) return nullptr;
  rule->has_dst = true;
  rule->dst_abbrev = std::move(*dst_name);
  if (in.at_end() || in.next_is(',')) {
    rule->dst_offset = rule->std_offset + 3600;
  } else {
    auto dst_clock = in.clock();
    if (!dst_clock) return nullptr;
    rule->dst_offset = -*dst_clock;
  }
  if (in.at_end()) {
    // tzcode's default: the United States' rules since 2007.
    rule->start = {Location::Rule::Kind::kMonthWeekDay, 0, 2, 3, 2 * 3600};
    rule->end = {Location::Rule::Kind::kMonthWeekDay, 0, 1, 11, 2 * 3600};
    return rule;
  }
  if (!in.skip(',') && !in.skip(';')) return nullptr;
  auto start = in.change();
  if (!start || !in.skip(',')) return nullptr;
  auto end = in.change();
  if (!end || !in.at_end()) return nullptr;
  rule->start = *start;
  rule->end = *end;
  return rule;
}

// Weekday (0 = Sunday) of the first of `month`, by Zeller's congruence in truncating arithmetic
// as Go evaluates it: right from year 0 on, off for earlier years, where we must agree with Go.
int first_weekday_of_month(std::int64_t year, int month) {
  const std::int64_t march_based_month = (month + 9) % 12 + 1;
  const std::int64_t y = month <= 2 ? year - 1 : year;
  const std::int64_t century = y / 100;
  const std::int64_t year_of_century = y % 100;
  std::int64_t weekday = ((26 * march_based_month - 2) / 10 + 1 + year_of_century +
                          year_of_century / 4 + century / 4 - 2 * century) %
                         7;
  if (weekday < 0) weekday += 7;
  return static_cast<int>(weekday);
}

// Seconds from the start of `year` (UTC) to the moment `c` happens in a zone `offset` seconds east.
std::int64_t change_time(std::int64_t year, const Location::Rule::Change& c, int offset) {
  using Kind = Location::Rule::Kind;
  std::int64_t day = 0;  // 0-based day of the year
  switch (c.kind) {
    case Kind::kJulian:
      day = c.day - 1 + (is_leap(year) && c.day >= 60 ? 1 : 0);
      break;
    case Kind::kDayOfYear:
      day = c.day;
      break;
    case Kind::kMonthWeekDay: {
      // The first such weekday of the month, then whole weeks while the month lasts.
      int mday = c.day - first_weekday_of_month(year, c.month);  // 0-based
      if (mday < 0) mday += 7;
      for (int week = 1; week < c.week && mday + 7 < days_in_month(c.month, year); ++week) {
        mday += 7;
      }
      day = mday;
      for (int m = 1; m < c.month; ++m) day += days_in_month(m, year);
      break;
    }
  }
  return day * kDay + c.time - offset;
}

// The period `rule` gives at instant t (past the file's last transition, `last`), with Go's
// bounds: exact next to the year's two changes, else the year's start or that plus 365 days.
Location::Zone rule_period(const Location::Rule& rule, std::int64_t last, std::int64_t t) {
  if (!rule.has_dst) return {rule.std_abbrev, rule.std_offset, false, last, kLastInstant};

  const std::int64_t days = floor_div<std::int64_t>(t, kDay);
  const std::int64_t year = civil_from_days(days).year;
  const std::int64_t day_of_year = days - static_cast<std::int64_t>(days_from_civil(year, 1));
  // Go adds the time of day with a truncating remainder, so for a negative t that is not on a
  // day boundary this comes out a day short (and the year's start a day late); so must ours.
  const std::int64_t into_year = day_of_year * kDay + t % kDay;
  const std::int64_t year_start = wrapping_add(t, -into_year);

  std::int64_t change_in = change_time(year, rule.start, rule.std_offset);
  std::int64_t change_out = change_time(year, rule.end, rule.dst_offset);
  // Outside [change_in, change_out) is the "standard" zone; in the southern hemisphere the end
  // rule comes first in the year and the roles swap.
  Location::Zone outside{rule.std_abbrev, rule.std_offset, false, 0, 0};
  Location::Zone inside{rule.dst_abbrev, rule.dst_offset, true, 0, 0};
  if (change_out < change_in) {
    std::swap(change_in, change_out);
    std::swap(outside.abbrev, inside.abbrev);
    std::swap(outside.offset, inside.offset);
    std::swap(outside.dst, inside.dst);
  }
  if (into_year < change_in) {
    outside.start = year_start;
    outside.end = wrapping_add(year_start, change_in);
    return outside;
  }
  if (into_year >= change_out) {
    outside.start = wrapping_add(year_start, change_out);
    outside.end = wrapping_add(year_start, 365 * kDay);
    return outside;
  }
  inside.start = wrapping_add(year_start, change_in);
  inside.end = wrapping_add(year_start, change_out);
  return inside;
}

// The zone before the first transition, as tzcode (and so Go) chooses it: the first zone if no
// transition uses it; else, if the first transition goes to daylight time, the nearest standard
// zone listed before that one; else the first standard zone; else the first zone.
int zone_before_transitions(const std::vector<Location::ZoneType>& zones,
                            const std::vector<Location::Transition>& transitions) {
  bool first_used = false;
  for (const auto& t : transitions) first_used = first_used || t.zone_index == 0;
  if (!first_used) return 0;
  if (!transitions.empty() && zones[transitions.front().zone_index].dst) {
    for (int i = transitions.front().zone_index - 1; i >= 0; --i) {
      if (!zones[i].dst) return i;
    }
  }
  for (std::size_t i = 0; i < zones.size(); ++i) {
    if (!zones[i].dst) return static_cast<int>(i);
  }
  return 0;
}

// ---- TZif ---------------------------------------------------------------------------------

constexpr std::string_view kMalformed = "malformed time zone information";

// Consumes a byte string front to back; every read says whether the bytes were there.
class Bytes {
 public:
  explicit Bytes(std::string_view b) : rest_(b) {}
  std::size_t size() const { return rest_.size(); }
  std::string_view rest() const { return rest_; }

  std::optional<std::string_view> take(std::uint64_t n) {
    if (n > rest_.size()) return std::nullopt;
    const std::string_view out = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return out;
  }

  static std::uint64_t big_endian(std::string_view b) {
    std::uint64_t v = 0;
    for (const char c : b) v = v << 8 | static_cast<unsigned char>(c);
    return v;
  }

 private:
  std::string_view rest_;
};

// The six counts of a TZif header, in file order.
struct Counts {
  std::uint64_t ut_indicators = 0, std_indicators = 0, leaps = 0, transitions = 0, types = 0,
                chars = 0;
};

std::optional<Counts> read_counts(Bytes& in) {
  auto b = in.take(24);
  if (!b) return std::nullopt;
  auto at = [&](int i) { return Bytes::big_endian(b->substr(4 * i, 4)); };
  return Counts{at(0), at(1), at(2), at(3), at(4), at(5)};
}

// The bytes of one data block: transition times of `time_size` bytes each.
std::uint64_t block_size(const Counts& n, std::uint64_t time_size) {
  return n.transitions * time_size + n.transitions + n.types * 6 + n.chars +
         n.leaps * (time_size + 4) + n.std_indicators + n.ut_indicators;
}

// Parses a TZif file as Go does (what Go checks, and nothing more: the second header's magic is
// not, for one), saying what is wrong when it is.
api::Expected<std::shared_ptr<const Location>> parse_tzif(std::string name,
                                                          std::string_view bytes) {
  auto fail = [&](const std::string& why) {
    return api::Unexpected{std::string(kMalformed) + ": " + why};
  };
  Bytes in(bytes);
  if (auto magic = in.take(4); !magic || *magic != "TZif") return fail("no TZif magic");
  auto header = in.take(16);
  if (!header) return fail("header truncated");
  const char version = header->front();
  if (version != '\0' && version != '2' && version != '3' && version != '4') {
    return fail("unknown version byte " + std::to_string(static_cast<unsigned char>(version)));
  }
  auto counts = read_counts(in);
  if (!counts) return fail("header truncated");
  std::uint64_t time_size = 4;
  if (version != '\0') {
    // Skip the 32-bit block and the second header's magic and version; the 64-bit block follows.
    if (!in.take(block_size(*counts, 4) + 20)) return fail("version 1 data block truncated");
    counts = read_counts(in);
    if (!counts) return fail("second header truncated");
    time_size = 8;
  }
  const Counts& n = *counts;
  if (block_size(n, time_size) > in.size()) {
    return fail("data block needs " + std::to_string(block_size(n, time_size)) + " bytes, " +
                std::to_string(in.size()) + " left");
  }
  const std::string_view times = *in.take(n.transitions * time_size);
  const std::string_view indices = *in.take(n.transitions);
  const std::string_view types = *in.take(n.types * 6);
  const std::string_view chars = *in.take(n.chars);
  (void)in.take(n.leaps * (time_size + 4) + n.std_indicators + n.ut_indicators);
  std::string extend;
  if (const std::string_view footer = in.rest();
      footer.size() > 2 && footer.front() == '\n' && footer.back() == '\n') {
    extend = footer.substr(1, footer.size() - 2);
  }
  if (n.types == 0) return fail("no local time types");

  std::vector<Location::ZoneType> zones(n.types);
  for (std::size_t i = 0; i < zones.size(); ++i) {
    const std::string_view t = types.substr(6 * i, 6);
    zones[i].offset = static_cast<std::int32_t>(Bytes::big_endian(t.substr(0, 4)));
    zones[i].dst = t[4] != 0;
    const auto abbrev_index = static_cast<unsigned char>(t[5]);
    if (abbrev_index >= chars.size()) {
      return fail("local time type " + std::to_string(i) + " names abbreviation byte " +
                  std::to_string(abbrev_index) + " of " + std::to_string(chars.size()));
    }
    const std::string_view abbrev = chars.substr(abbrev_index);
    zones[i].abbrev = std::string(abbrev.substr(0, abbrev.find('\0')));
  }
  std::vector<Location::Transition> transitions(n.transitions);
  for (std::size_t i = 0; i < transitions.size(); ++i) {
    const std::uint64_t raw = Bytes::big_endian(times.substr(i * time_size, time_size));
    transitions[i].when =
        time_size == 4 ? static_cast<std::int32_t>(raw) : static_cast<std::int64_t>(raw);
    transitions[i].zone_index = static_cast<unsigned char>(indices[i]);
    if (transitions[i].zone_index >= static_cast<int>(zones.size())) {
      return fail("transition " + std::to_string(i) + " names local time type " +
                  std::to_string(transitions[i].zone_index) + " of " +
                  std::to_string(zones.size()));
    }
  }
  return std::make_shared<const Location>(std::move(name), std::move(zones), std::move(transitions),
                                          std::move(extend));
}

}  // namespace

Location::Location(std::string name, std::vector<ZoneType> zones,
                   std::vector<Transition> transitions, std::string extend)
    : name_(std::move(name)),
      zones_(std::move(zones)),
      transitions_(std::move(transitions)),
      extend_(std::move(extend)) {
  if (!zones_.empty() && transitions_.empty()) transitions_.push_back({kFirstInstant, 0});
  if (!extend_.empty()) rule_ = parse_rule(extend_);
  if (!zones_.empty()) first_zone_ = zone_before_transitions(zones_, transitions_);
}

std::shared_ptr<const Location> Location::utc() {
  static const auto kUtc = std::make_shared<const Location>("UTC", std::vector<ZoneType>{},
                                                            std::vector<Transition>{}, "");
  return kUtc;
}

api::Expected<std::shared_ptr<const Location>> Location::from_tzif(std::string name,
                                                                   std::string_view bytes) {
  return parse_tzif(std::move(name), bytes);
}

Location::Zone Location::lookup(std::int64_t unix) const {
  if (zones_.empty()) return {"UTC", 0, false, kFirstInstant, kLastInstant};
  if (unix < transitions_.front().when) {
    const ZoneType& z = zones_[first_zone_];
    return {z.abbrev, z.offset, z.dst, kFirstInstant, transitions_.front().when};
  }
  // Bisect for the last transition at or before `unix` (the next one, if any, ends the period).
  // Defined for any order of transitions; a file out of order answers differently in Go, where
  // it also depends on the period cached for the moment the file was loaded.
  std::size_t low = 0, high = transitions_.size();
  std::int64_t end = kLastInstant;
  while (high - low > 1) {
    const std::size_t mid = low + (high - low) / 2;
    if (unix < transitions_[mid].when) {
      end = transitions_[mid].when;
      high = mid;
    } else {
      low = mid;
    }
  }
  const std::int64_t start = transitions_[low].when;
  if (low + 1 == transitions_.size() && rule_ != nullptr) return rule_period(*rule_, start, unix);
  const ZoneType& z = zones_[transitions_[low].zone_index];
  return {z.abbrev, z.offset, z.dst, start, end};
}

CivilTime civil_time(std::int64_t unix, const Location& loc) {
  Location::Zone zone = loc.lookup(unix);
  const std::int64_t local = wrapping_add(unix, zone.offset);
  const std::int64_t days = floor_div(local, kDay);
  const auto second_of_day = static_cast<int>(local - days * kDay);
  const Date date = civil_from_days(days);
  CivilTime out;
  out.year = static_cast<int>(date.year);
  out.month = date.month;
  out.day = date.day;
  out.hour = second_of_day / 3600;
  out.minute = second_of_day / 60 % 60;
  out.second = second_of_day % 60;
  out.weekday = static_cast<int>(floor_mod<std::int64_t>(days + 4, 7));
  out.offset = zone.offset;
  out.abbrev = std::move(zone.abbrev);
  return out;
}

std::int64_t date_unix(std::int64_t year, std::int64_t month, std::int64_t day, std::int64_t hour,
                       std::int64_t minute, std::int64_t second, const Location& loc) {
  // Carry each field's overflow (either way) into the next larger one.
  Wide y = year, m = Wide{month} - 1, d = day, h = hour, mi = minute, s = second;
  auto carry = [](Wide& big, Wide& small, Wide base) {
    big += floor_div(small, base);
    small = floor_mod(small, base);
  };
  carry(y, m, 12);
  carry(mi, s, 60);
  carry(h, mi, 60);
  carry(d, h, 24);
  const Wide days = days_from_civil(y, static_cast<int>(m) + 1) + d - 1;
  // The civil time read as UTC; beyond int64 it wraps, as Go's arithmetic does.
  std::int64_t unix = static_cast<std::int64_t>(days * kDay + h * 3600 + mi * 60 + s);

  Location::Zone zone = loc.lookup(unix);
  if (zone.offset != 0) {
    const std::int64_t utc = wrapping_add(unix, -static_cast<std::int64_t>(zone.offset));
    if (utc < zone.start || utc >= zone.end) zone = loc.lookup(utc);
    unix = wrapping_add(unix, -static_cast<std::int64_t>(zone.offset));
  }
  return unix;
}

}  // namespace vc::go
