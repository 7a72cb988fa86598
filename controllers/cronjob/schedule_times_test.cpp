// Missed-run arithmetic on plain times: a clock that starts at creation or the last run, the
// deadline, the jump over many missed runs, and the requeue delay.
#include "controllers/cronjob/schedule_times.h"

#include <gtest/gtest.h>

namespace vc::controllers::cronjob {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// 2024-01-15T10:00:00Z.
const api::TimePoint kTen{seconds(1705312800)};

api::TimePoint at(int minutes, int secs = 0, int ms = 0) {
  return kTen + std::chrono::minutes(minutes) + seconds(secs) + milliseconds(ms);
}

cron::Schedule every_minute() {
  return *cron::Schedule::parse("* * * * *", go::Location::utc());
}

TEST(MostRecentScheduleTime, NothingDueBeforeTheFirstRun) {
  const MostRecent r =
      most_recent_schedule_time({.created = at(0)}, at(0, 30), every_minute(), true);
  EXPECT_EQ(r.time, std::nullopt);
  EXPECT_EQ(r.missed, Missed::kNone);
  EXPECT_EQ(r.earliest, at(0));
  EXPECT_EQ(r.error, "");
}

TEST(MostRecentScheduleTime, OneRunDueIsNotAMiss) {
  const MostRecent r =
      most_recent_schedule_time({.created = at(0)}, at(1, 5), every_minute(), true);
  EXPECT_EQ(r.time, at(1));
  EXPECT_EQ(r.missed, Missed::kNone);
}

TEST(MostRecentScheduleTime, AfterDowntimeOnlyTheLatestRunIsDue) {
  const MostRecent r =
      most_recent_schedule_time({.created = at(0)}, at(5, 30), every_minute(), true);
  EXPECT_EQ(r.time, at(5));
  EXPECT_EQ(r.missed, Missed::kFew);
}

TEST(MostRecentScheduleTime, MoreThanAHundredMissedRunsAreMany) {
  const MostRecent r =
      most_recent_schedule_time({.created = at(0)}, at(120, 30), every_minute(), true);
  EXPECT_EQ(r.time, at(120));
  EXPECT_EQ(r.missed, Missed::kMany);
}

TEST(MostRecentScheduleTime, TheDeadlineMovesTheStartForward) {
  const ScheduleClock clock{.created = at(0), .starting_deadline_s = 200};
  const MostRecent with = most_recent_schedule_time(clock, at(120, 30), every_minute(), true);
  EXPECT_EQ(with.earliest, at(117, 10));
  EXPECT_EQ(with.time, at(120));
  EXPECT_EQ(with.missed, Missed::kFew);
  // Without it (the requeue arithmetic) the start stays at creation.
  const MostRecent without = most_recent_schedule_time(clock, at(120, 30), every_minute(), false);
  EXPECT_EQ(without.earliest, at(0));
  EXPECT_EQ(without.missed, Missed::kMany);
}

TEST(MostRecentScheduleTime, TheLastRunRestartsTheClock) {
  const ScheduleClock clock{.created = at(-600), .last_schedule = at(5)};
  EXPECT_EQ(most_recent_schedule_time(clock, at(5, 40), every_minute(), true).time, std::nullopt);
  EXPECT_EQ(most_recent_schedule_time(clock, at(6, 1), every_minute(), true).time, at(6));
}

TEST(MostRecentScheduleTime, AScheduleThatNeverRunsIsAnError) {
  const auto never = *cron::Schedule::parse("0 0 30 2 *", go::Location::utc());
  const MostRecent r = most_recent_schedule_time({.created = at(0)}, at(10), never, true);
  EXPECT_EQ(r.time, std::nullopt);
  EXPECT_EQ(r.error, "time difference between two schedules is less than 1 second");
}

TEST(NextScheduleTime, NothingInTheFuture) {
  EXPECT_EQ(next_schedule_time({.created = at(0)}, at(0, 59, 999), every_minute()).time,
            std::nullopt);
  EXPECT_EQ(next_schedule_time({.created = at(0)}, at(1), every_minute()).time, at(1));
}

TEST(NextRequeueDelay, HundredMillisecondsAfterTheNextRun) {
  // Just ran at 10:05: next at 10:06, 59.9 s from 10:05:00.2.
  const ScheduleClock ran{.created = at(0), .last_schedule = at(5)};
  EXPECT_EQ(next_requeue_delay(ran, at(5, 0, 200), every_minute()), milliseconds(59'900));
  // Nothing run yet, first run ahead.
  EXPECT_EQ(next_requeue_delay({.created = at(0)}, at(0, 30), every_minute()),
            milliseconds(30'100));
  // Runs missed: counted from the latest of them.
  EXPECT_EQ(next_requeue_delay({.created = at(0)}, at(5, 30), every_minute()),
            milliseconds(30'100));
}

}  // namespace
}  // namespace vc::controllers::cronjob
