// The parser's accept/reject decisions and next() on cases worth naming; golden_test.cpp
// compares a larger table with robfig itself.
#include "common/cron/schedule.h"

#include <string_view>

#include <gtest/gtest.h>

namespace vc::cron {
namespace {

bool accepts(std::string_view spec) {
  return Schedule::parse(spec, go::Location::utc()).ok();
}

TEST(CronSchedule, AcceptsStandardForms) {
  for (const char* spec : {"* * * * *",         "0 0 * * *",
                           "*/5 * * * *",       "0-30/10 1,2,3 1-31 * ?",
                           "5 4 * JAN-mar sun", "0 12 1 jan,Jul MON-FRI",
                           "59 23 31 12 6",     "0 0 * * 1/2",
                           "1,,2 * * * *",      ", * * * *",
                           "*-99 * * * *",      "  0  0  *  *  *  ",
                           "+5 * * * *",        "@yearly",
                           "@annually",         "@monthly",
                           "@weekly",           "@daily",
                           "@midnight",         "@hourly",
                           "@every 1h30m",      "@every 0s",
                           "TZ=UTC 0 0 * * *",  "CRON_TZ=UTC @daily"}) {
    EXPECT_TRUE(accepts(spec)) << spec;
  }
}

TEST(CronSchedule, RejectsWhatRobfigRejects) {
  for (const char* spec : {"",
                           "* * * *",
                           "* * * * * *",
                           "60 * * * *",
                           "* 24 * * *",
                           "* * 0 * *",
                           "* * * 13 *",
                           "* * * * 7",
                           "*/0 * * * *",
                           "5-1 * * * *",
                           "1-2-3 * * * *",
                           "1/2/3 * * * *",
                           "-1 * * * *",
                           "a * * * *",
                           "* * * foo *",
                           "@every",
                           "@every 5",
                           "@every 1x",
                           "@Daily",
                           "@daily ",
                           "@reboot",
                           "TZ=Nowhere/Zone 0 0 * * *",
                           "TZ=UTC"}) {
    EXPECT_FALSE(accepts(spec)) << spec;
  }
}

TEST(CronSchedule, ZonePrefixesLoadFromTheSystemDatabase) {
  for (const char* zone : {"UTC", "Local", "", "America/New_York"}) {
    EXPECT_TRUE(accepts(std::string("TZ=") + zone + " 0 0 * * *")) << zone;
  }
  for (const char* zone : {"Nowhere/Zone", "../etc/passwd", "/etc/passwd", "Europe"}) {
    EXPECT_FALSE(accepts(std::string("TZ=") + zone + " 0 0 * * *")) << zone;
    EXPECT_FALSE(go::Location::load(zone)) << zone;
  }
}

// 2024-01-15T10:07:13Z, a Monday.
constexpr std::int64_t kMonday = 1705313233;

std::int64_t next_of(std::string_view spec, std::int64_t from) {
  auto s = Schedule::parse(spec, go::Location::utc());
  EXPECT_TRUE(s.ok()) << spec;
  return s ? s->next(from).value_or(-1) : -1;
}

TEST(CronNext, StepsToTheNextMatchingMinute) {
  EXPECT_EQ(next_of("* * * * *", kMonday), 1705313280);      // 10:08:00
  EXPECT_EQ(next_of("*/5 * * * *", kMonday), 1705313400);    // 10:10:00
  EXPECT_EQ(next_of("0 9 * * *", kMonday), 1705395600);      // tomorrow 09:00
  EXPECT_EQ(next_of("@every 90s", kMonday), kMonday + 90);   // constant delay
  EXPECT_EQ(next_of("@every 500ms", kMonday), kMonday + 1);  // at least a second
}

TEST(CronNext, StrictlyAfterTheStart) {
  // From exactly 10:08:00 the next "every minute" is 10:09:00, not 10:08:00.
  EXPECT_EQ(next_of("* * * * *", 1705313280), 1705313340);
}

TEST(CronNext, DayOfMonthOrDayOfWeekUnlessOneIsAStar) {
  // "1st of the month OR a Monday": from Monday 10:07 the next is Monday next week or the 1st.
  EXPECT_EQ(next_of("0 0 1 * MON", kMonday), 1705881600);  // Mon 2024-01-22 00:00
  // "? in day of month": only Mondays.
  EXPECT_EQ(next_of("0 0 ? * MON", kMonday), 1705881600);
}

TEST(CronNext, NoMatchWithinFiveYearsIsNone) {
  auto s = Schedule::parse("0 0 30 2 *", go::Location::utc());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->next(kMonday), std::nullopt);
}

TEST(CronParse, ZonePrefixSetsTheLocation) {
  auto s = Schedule::parse("TZ=Asia/Kolkata 0 9 * * *", go::Location::utc());
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->location().name(), "Asia/Kolkata");
  // 09:00 in Kolkata is 03:30 UTC.
  EXPECT_EQ(s->next(kMonday), 1705375800);  // 2024-01-16T03:30:00Z
  EXPECT_EQ(Schedule::parse("TZ=Nowhere/Zone 0 0 * * *", go::Location::utc()).error(),
            "provided bad location Nowhere/Zone: unknown time zone Nowhere/Zone");
}

}  // namespace
}  // namespace vc::cron
