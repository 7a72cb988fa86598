#pragma once
// Go's time.LoadLocation, accept/reject only, against the system tz database: "" and "UTC" are
// UTC, "Local" is the local zone, anything else must name a TZif file under one of Go's zoneinfo
// directories (first $ZONEINFO, then /usr/share/zoneinfo, /usr/share/lib/zoneinfo,
// /usr/lib/locale/TZ, /etc/zoneinfo).
//
// Threads: safe from any thread (reads the file system only).

#include <string_view>

namespace vc::webhook::jobs {

bool load_location_ok(std::string_view name);

}  // namespace vc::webhook::jobs
