#pragma once
// Go's time zones (time.LoadLocation, Time.In, time.Date) at one-second resolution, from the
// system tz database: what the CronJob controller needs to find a schedule's next run in the
// zone a CronJob names, and what the webhook needs to accept or refuse that zone.
//
// A zone is read from a TZif file (RFC 8536) under the first of Go's zoneinfo places that has it:
// $ZONEINFO (a directory, or an uncompressed zip as Go ships in lib/time/zoneinfo.zip), then
// /usr/share/zoneinfo, /usr/share/lib/zoneinfo, /usr/lib/locale/TZ, /etc/zoneinfo. The 64-bit
// block of a version 2+ file is the one read. Times after the file's last transition follow its
// footer's POSIX TZ rule ("EST5EDT,M3.2.0,M11.1.0") exactly as Go evaluates it, so "slim" files
// answer as "fat" ones do; times before the first transition get the zone Go picks for them.
//
// Where this differs from Go, on purpose:
//  - version '4' files are read (Go 1.26 refuses them as malformed; they differ from version 3
//    only in leap-second rules, which neither uses);
//  - a zone found nowhere on disk is not looked up in $GOROOT/lib/time/zoneinfo.zip or in an
//    embedded time/tzdata (a C++ binary has neither);
//  - $ZONEINFO and $TZ are read at each load (Go reads them once); loads are cached by name, the
//    value of $ZONEINFO (and for "Local" of $TZ), so in practice each is read once;
//  - a year that does not fit in an int wraps in CivilTime, and time.Date fields so large that
//    Go's 64-bit arithmetic overflows (years beyond about 292 billion) give another wrong answer
//    than Go's.
//
// Threads: a Location is immutable and may be shared; every function is safe from any thread
// (load reads the file system and a mutex-guarded cache).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/api/expected.h"

namespace vc::go {

// Civil time in a zone, as Go's Time.Date(), Clock(), Weekday() and Zone() return it.
struct CivilTime {
  int year = 1970;
  int month = 1;  // 1..12
  int day = 1;    // 1..31
  int hour = 0;
  int minute = 0;
  int second = 0;
  int weekday = 4;     // 0 = Sunday (1970-01-01 was a Thursday)
  int offset = 0;      // seconds east of UTC in effect
  std::string abbrev;  // "CET", "EDT", "+0530", "UTC"
  friend bool operator==(const CivilTime&, const CivilTime&) = default;
};

class Location {
 public:
  // One period of the zone: [start, end) in Unix seconds, with its offset. As in Go, a period a
  // footer rule computes is bounded by its transitions only near them: otherwise start and end
  // may be the UTC year's start and the same plus 365 days. The first period starts at INT64_MIN
  // and the last ends at INT64_MAX.
  struct Zone {
    std::string abbrev;
    int offset = 0;  // seconds east of UTC
    bool dst = false;
    std::int64_t start = 0;
    std::int64_t end = 0;
  };

  // time.UTC.
  static std::shared_ptr<const Location> utc();

  // time.LoadLocation: "" and "UTC" are UTC; "Local" is the process's zone ($TZ: unset means
  // /etc/localtime, "" UTC, ":name" or "name" that file, an absolute path read as is; anything
  // that fails to load is UTC); any other name must be a TZif file under a zoneinfo place.
  // Errors as Go words them: `unknown time zone America/Nowhere`, `time: invalid location name`
  // (a name containing "..", or starting with '/' or '\'), `malformed time zone information`,
  // and the system's for a file that cannot be read (`is a directory`, `not a directory`).
  static api::Expected<std::shared_ptr<const Location>> load(std::string_view name);

  // Builds a zone from TZif bytes (for tests and for load), accepting what Go's
  // time.LoadLocationFromTZData accepts (plus version '4'). An error starts with Go's
  // `malformed time zone information` and goes on to say what is wrong.
  static api::Expected<std::shared_ptr<const Location>> from_tzif(std::string name,
                                                                  std::string_view bytes);

  const std::string& name() const { return name_; }

  // The period in effect at Unix second t (Go's Location.lookup).
  Zone lookup(std::int64_t unix) const;

  // Implementation detail, public for from_tzif and the tests.
  struct Transition {
    std::int64_t when = 0;
    int zone_index = 0;  // into zones; must be in range
  };
  struct ZoneType {
    std::string abbrev;
    int offset = 0;
    bool dst = false;
  };
  // No zones: UTC. Zones but no transitions: as Go, one transition at INT64_MIN to zones[0].
  // `extend` is the footer's rule; one Go would not parse is ignored, as Go ignores it.
  Location(std::string name, std::vector<ZoneType> zones, std::vector<Transition> transitions,
           std::string extend);

  // The footer rule, parsed (time_zone.cpp).
  struct Rule;

 private:
  std::string name_;
  std::vector<ZoneType> zones_;
  std::vector<Transition> transitions_;
  std::string extend_;                // the footer's POSIX TZ rule, "" if none
  std::shared_ptr<const Rule> rule_;  // extend_ parsed; null if empty or unparsable
  int first_zone_ = 0;                // the zone before the first transition
};

// Go's t.In(loc) broken down: the civil time at Unix second `unix` in `loc`.
CivilTime civil_time(std::int64_t unix, const Location& loc);

// Go's time.Date(year, month, day, hour, minute, second, 0, loc).Unix(): fields out of range are
// normalised as Go does (month 13 is January of the next year, day 0 the last day of the previous
// month, hour 25 one o'clock the next day, ...). A civil time a transition skips or repeats
// resolves as Go resolves it: the civil time read as UTC picks a period, its offset is
// subtracted, and if that lands outside the period the offset in effect there is used instead.
// In New York 2024-03-10 02:30 (skipped) is 01:30 EST and 2024-11-03 01:30 (repeated) is EDT.
std::int64_t date_unix(std::int64_t year, std::int64_t month, std::int64_t day, std::int64_t hour,
                       std::int64_t minute, std::int64_t second, const Location& loc);

}  // namespace vc::go
