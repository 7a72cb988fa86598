#include <gtest/gtest.h>

#include <chrono>
#include <limits>

#include "controllers/job/sync/status_finish.h"

namespace vc::controllers::job {
namespace {

using namespace std::chrono_literals;

api::TimePoint at(std::chrono::nanoseconds d) {
  return api::TimePoint{} + d;
}

TEST(TouchTransition, SetsTheTimeAndAppendsTheCurrentPhase) {
  JobStatus s;
  s.phase = phase::kRunning;
  s.conditions = {{phase::kPending, at(1s)}};
  touch_transition(s, at(5s));
  EXPECT_EQ(s.last_transition_time, at(5s));
  EXPECT_EQ(s.conditions,
            (std::vector<JobCondition>{{phase::kPending, at(1s)}, {phase::kRunning, at(5s)}}));
}

TEST(TouchTransition, ReplacesAnOlderEntryOfTheSamePhaseAndPutsItLast) {
  JobStatus s;
  s.phase = phase::kPending;
  s.conditions = {
      {phase::kPending, at(1s)}, {phase::kRunning, at(2s)}, {phase::kRestarting, at(3s)}};
  touch_transition(s, at(9s));
  EXPECT_EQ(s.conditions, (std::vector<JobCondition>{{phase::kRunning, at(2s)},
                                                     {phase::kRestarting, at(3s)},
                                                     {phase::kPending, at(9s)}}));
}

TEST(TouchTransition, SamePhaseAgainOnlyRefreshesTheTime) {
  JobStatus s;
  s.phase = phase::kRunning;
  touch_transition(s, at(1s));
  touch_transition(s, at(2s));
  EXPECT_EQ(s.conditions, (std::vector<JobCondition>{{phase::kRunning, at(2s)}}));
}

TEST(StatusChanged, EqualStatusesAreUnchanged) {
  JobStatus a;
  a.phase = phase::kRunning;
  a.task_status_count = {{"t", {{"Running", 1}}}};
  EXPECT_FALSE(status_changed(a, a));
  EXPECT_FALSE(status_changed(JobStatus{}, JobStatus{}));
}

TEST(StatusChanged, AnyFieldDifferenceIsAChange) {
  JobStatus base;
  base.phase = phase::kRunning;
  auto differs = [&](auto mutate) {
    JobStatus next = base;
    mutate(next);
    return status_changed(base, next);
  };
  EXPECT_TRUE(differs([](JobStatus& s) { s.phase = phase::kFailed; }));
  EXPECT_TRUE(differs([](JobStatus& s) { s.running = 1; }));
  EXPECT_TRUE(differs([](JobStatus& s) { s.terminating = 1; }));
  EXPECT_TRUE(differs([](JobStatus& s) { s.min_available = 2; }));
  EXPECT_TRUE(differs([](JobStatus& s) { s.task_status_count["t"]["Running"] = 1; }));
  EXPECT_TRUE(differs([](JobStatus& s) { s.task_status_count["t"]; }))
      << "a task entry with no counts is not the same as no entry";
  EXPECT_TRUE(differs([](JobStatus& s) { s.running_duration = "1s"; }));
  EXPECT_TRUE(differs([](JobStatus& s) { s.controlled_resources["plugin-env"] = "env"; }));
  EXPECT_TRUE(differs([](JobStatus& s) { s.last_transition_time = at(1s); }));
  EXPECT_TRUE(differs([](JobStatus& s) { s.conditions.push_back({phase::kRunning, at(1s)}); }));
}

TEST(SetRunningDuration, IsTransitionTimeMinusCreation) {
  Job job;
  job.creation_timestamp = at(100s);
  JobStatus s;
  s.last_transition_time = at(162s + 500ms);
  set_running_duration(s, job);
  EXPECT_EQ(s.running_duration, "1m2.5s");
}

TEST(SetRunningDuration, UnknownTimesLeaveItUnchanged) {
  Job job;
  JobStatus s;
  s.running_duration = "4s";
  s.last_transition_time = at(1s);
  set_running_duration(s, job);
  EXPECT_EQ(s.running_duration, "4s");
}

}  // namespace
}  // namespace vc::controllers::job
