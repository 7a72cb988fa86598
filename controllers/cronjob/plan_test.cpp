// plan_sync on plain snapshots: every branch of a CronJob sync, no cluster and no clock.
#include "controllers/cronjob/plan.h"

#include <gtest/gtest.h>

namespace vc::controllers::cronjob {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;
using std::chrono::seconds;

// 2024-01-15T10:00:00Z.
const api::TimePoint kTen{seconds(1705312800)};

api::TimePoint at(int minutes, int secs = 0) {
  return kTen + std::chrono::minutes(minutes) + seconds(secs);
}

// A CronJob created at 10:00 running every minute, with `spec` and `status` merged in.
volcano::CronJob cron_job(json spec = json::object(), json status = json::object()) {
  json doc = {{"metadata",
               {{"name", "nightly"},
                {"namespace", "ml"},
                {"uid", "cj-uid"},
                {"creationTimestamp", "2024-01-15T10:00:00Z"}}},
              {"spec",
               {{"schedule", "* * * * *"},
                {"concurrencyPolicy", "Allow"},
                {"jobTemplate",
                 {{"metadata", {{"labels", {{"team", "ml"}}}, {"annotations", {{"a", "b"}}}}},
                  {"spec", {{"queue", "default"}}}}}}},
              {"status", std::move(status)}};
  doc["spec"].update(spec);
  volcano::CronJob out;
  volcano::decode_cron_job(doc, out);
  return out;
}

struct Fixture {
  volcano::CronJob cj;
  std::string template_spec = R"({"queue":"default"})";
  Snapshot snapshot(api::TimePoint now, std::vector<OwnedJob> owned = {}) const {
    return Snapshot{.cron_job = &cj,
                    .job_template_spec = &template_spec,
                    .owned = std::move(owned),
                    .now = now,
                    .local = go::Location::utc()};
  }
};

json active_ref(const std::string& name, const std::string& uid) {
  return {{"kind", "Job"},
          {"namespace", "ml"},
          {"name", name},
          {"uid", uid},
          {"apiVersion", "batch.volcano.sh/v1alpha1"}};
}

template <class T>
std::vector<T> steps_of(const Plan& p) {
  std::vector<T> out;
  for (const Step& s : p.steps) {
    if (const T* t = std::get_if<T>(&s)) out.push_back(*t);
  }
  return out;
}

TEST(PlanSync, NothingDueRequeuesForTheFirstRun) {
  const Fixture f{cron_job()};
  const Plan p = plan_sync(f.snapshot(at(0, 30)));
  EXPECT_TRUE(p.steps.empty());
  EXPECT_FALSE(p.status_changed);
  EXPECT_EQ(p.requeue_after, milliseconds(30'100));
}

TEST(PlanSync, ADueRunCreatesItsJob) {
  const Fixture f{cron_job()};
  const Plan p = plan_sync(f.snapshot(at(1, 2)));
  const auto creates = steps_of<CreateJob>(p);
  ASSERT_EQ(creates.size(), 1u);
  const json& job = creates[0].job;
  EXPECT_EQ(job["metadata"]["name"], "nightly-28421881");  // 10:01 in Unix minutes
  EXPECT_EQ(job["metadata"]["namespace"], "ml");
  EXPECT_EQ(job["metadata"]["labels"], (json{{"team", "ml"}}));
  EXPECT_EQ(job["metadata"]["annotations"],
            (json{{"a", "b"}, {kScheduledTimestampAnnotation, "2024-01-15T10:01:00Z"}}));
  EXPECT_EQ(job["metadata"]["ownerReferences"][0]["uid"], "cj-uid");
  EXPECT_EQ(job["metadata"]["ownerReferences"][0]["controller"], true);
  EXPECT_EQ(job["spec"], (json{{"queue", "default"}}));
  EXPECT_EQ(creates[0].scheduled, at(1));
  EXPECT_EQ(creates[0].requeue_after, milliseconds(58'100));  // 10:02:00.1 - 10:01:02
}

TEST(PlanSync, TheAnnotationIsInTheCronJobsZone) {
  const Fixture f{cron_job({{"timeZone", "Asia/Kolkata"}, {"schedule", "30 15 * * *"}})};
  // 15:30 in Kolkata is 10:00 UTC; due at 10:00:05 UTC.
  const Plan p = plan_sync(f.snapshot(at(0, 5) + std::chrono::hours(24)));
  const auto creates = steps_of<CreateJob>(p);
  ASSERT_EQ(creates.size(), 1u);
  EXPECT_EQ(creates[0].job["metadata"]["annotations"][kScheduledTimestampAnnotation],
            "2024-01-16T15:30:00+05:30");
}

TEST(PlanSync, AnAlreadyRecordedRunIsNotMadeTwice) {
  const Fixture f{cron_job(json::object(), {{"lastScheduleTime", "2024-01-15T10:01:00Z"}})};
  const Plan p = plan_sync(f.snapshot(at(1, 30)));
  EXPECT_TRUE(steps_of<CreateJob>(p).empty());
  EXPECT_EQ(p.requeue_after, milliseconds(30'100));
}

TEST(PlanSync, FinishedJobsLeaveActiveAndAdvanceLastSuccessfulTime) {
  const Fixture f{
      cron_job(json::object(), {{"active", json::array({active_ref("nightly-1", "u1")})},
                                {"lastScheduleTime", "2024-01-15T10:01:00Z"}})};
  const Plan p = plan_sync(f.snapshot(at(1, 30), {{.name = "nightly-1",
                                                   .uid = "u1",
                                                   .created = at(1),
                                                   .phase = "Completed",
                                                   .last_transition = at(1, 20)}}));
  EXPECT_TRUE(p.status.active.empty());
  EXPECT_EQ(p.status.last_successful_time, at(1, 20));
  EXPECT_TRUE(p.status_changed);
  EXPECT_EQ(steps_of<Event>(p),
            (std::vector<Event>{
                {"Normal", "SawCompletedJob", "Saw completed job: nightly-1 in active, remove"}}));
}

TEST(PlanSync, HistoryLimitsDeleteTheOldestBeyondThem) {
  const Fixture f{cron_job({{"successfulJobsHistoryLimit", 1}, {"failedJobsHistoryLimit", 0}},
                           {{"lastScheduleTime", "2024-01-15T10:05:00Z"}})};
  const Plan p = plan_sync(
      f.snapshot(at(5, 30), {{.name = "c", .uid = "3", .created = at(3), .phase = "Completed"},
                             {.name = "a", .uid = "1", .created = at(1), .phase = "Completed"},
                             {.name = "b", .uid = "2", .created = at(1), .phase = "Completed"},
                             {.name = "f", .uid = "4", .created = at(4), .phase = "Failed"},
                             {.name = "t", .uid = "5", .created = at(4), .phase = "Terminated"}}));
  // Oldest first, equal times by name; Terminated counts as neither.
  EXPECT_EQ(steps_of<DeleteForHistory>(p), (std::vector<DeleteForHistory>{{"a"}, {"b"}, {"f"}}));
}

TEST(PlanSync, RunningJobsMissingFromActiveAreCheckedAsOrphans) {
  const Fixture f{cron_job(json::object(), {{"lastScheduleTime", "2024-01-15T10:01:00Z"}})};
  const Plan p = plan_sync(
      f.snapshot(at(1, 30), {{.name = "x", .uid = "ux", .created = at(1), .phase = "Running"}}));
  EXPECT_EQ(steps_of<CheckOrphan>(p), (std::vector<CheckOrphan>{{"x", "ux"}}));
}

TEST(PlanSync, ActiveReferencesTheCacheLacksAreVerifiedNotDropped) {
  Fixture f{cron_job(json::object(),
                     {{"active", json::array({active_ref("gone", "u1"), active_ref("swapped", "u2"),
                                              active_ref("other", "u3")})},
                      {"lastScheduleTime", "2024-01-15T10:01:00Z"}})};
  Snapshot s = f.snapshot(at(2, 1));
  s.active_name_uids = {{"swapped", "u9"}, {"other", "u3"}};
  const Plan p = plan_sync(s);
  EXPECT_EQ(p.status.active.size(), 3u);  // the executor drops those the API server lacks
  EXPECT_FALSE(p.status_changed);
  EXPECT_TRUE(steps_of<Event>(p).empty());
  ASSERT_EQ(p.steps.size(), 3u);  // verified first, then the due run of this Allow CronJob
  EXPECT_EQ(std::get<VerifyActive>(p.steps[0]).ref.name, "gone");
  EXPECT_EQ(std::get<VerifyActive>(p.steps[1]).ref.name, "swapped");
  EXPECT_EQ(std::get<CreateJob>(p.steps[2]).scheduled, at(2));
}

// The case users met: a Replace sync created the run's Job and recorded it in status.active; the
// next sync, a few milliseconds later, finds the CronJob updated but the Job cache without the Job.
TEST(PlanSync, AJobJustCreatedAndNotYetInTheCacheStaysActive) {
  const Fixture f{cron_job({{"concurrencyPolicy", "Replace"}},
                           {{"active", json::array({active_ref("nightly-28421882", "u2")})},
                            {"lastScheduleTime", "2024-01-15T10:02:00Z"}})};
  const Plan p = plan_sync(f.snapshot(at(2, 0) + milliseconds(7)));
  EXPECT_EQ(steps_of<VerifyActive>(p), (std::vector<VerifyActive>{{f.cj.status.active.at(0)}}));
  ASSERT_EQ(p.status.active.size(), 1u);
  EXPECT_EQ(p.status.active[0].uid, "u2");
  EXPECT_TRUE(steps_of<Event>(p).empty());  // no StaleReference, no ReplaceConcurrent
  EXPECT_TRUE(steps_of<ReplaceActive>(p).empty());
}

TEST(PlanSync, SuspendedStopsAfterTheCleanup) {
  const Fixture f{cron_job({{"suspend", true}})};
  const Plan p = plan_sync(f.snapshot(at(5)));
  EXPECT_TRUE(p.steps.empty());
  EXPECT_EQ(p.requeue_after, std::nullopt);
}

TEST(PlanSync, ForbidSkipsWhileAJobRuns) {
  const Fixture f{cron_job({{"concurrencyPolicy", "Forbid"}},
                           {{"active", json::array({active_ref("nightly-1", "u1")})},
                            {"lastScheduleTime", "2024-01-15T10:01:00Z"}})};
  const Plan p = plan_sync(f.snapshot(
      at(2, 1), {{.name = "nightly-1", .uid = "u1", .created = at(1), .phase = "Running"}}));
  EXPECT_TRUE(steps_of<CreateJob>(p).empty());
  EXPECT_EQ(steps_of<Event>(p).at(0).reason, "ForbidConcurrent");
  EXPECT_EQ(p.requeue_after, milliseconds(59'100));  // 10:03:00.1 - 10:02:01
}

TEST(PlanSync, ReplaceDeletesTheRunningJobsFirst) {
  const Fixture f{cron_job({{"concurrencyPolicy", "Replace"}},
                           {{"active", json::array({active_ref("nightly-1", "u1")})},
                            {"lastScheduleTime", "2024-01-15T10:01:00Z"}})};
  const Plan p = plan_sync(f.snapshot(
      at(2, 1), {{.name = "nightly-1", .uid = "u1", .created = at(1), .phase = "Running"}}));
  ASSERT_EQ(p.steps.size(), 3u);
  EXPECT_EQ(std::get<Event>(p.steps[0]).reason, "ReplaceConcurrent");
  EXPECT_EQ(std::get<ReplaceActive>(p.steps[1]).jobs.at(0).name, "nightly-1");
  EXPECT_EQ(std::get<CreateJob>(p.steps[2]).scheduled, at(2));
}

TEST(PlanSync, AfterDowntimeOnlyTheLatestRunIsMade) {
  const Fixture f{cron_job()};
  const Plan p = plan_sync(f.snapshot(at(300)));  // five hours without a sync
  const auto creates = steps_of<CreateJob>(p);
  ASSERT_EQ(creates.size(), 1u);
  EXPECT_EQ(creates[0].scheduled, at(300));
  EXPECT_EQ(steps_of<Event>(p).at(0).reason, "TooManyMissedTimes");
}

TEST(PlanSync, TheStartingDeadlineDropsRunsTooLate) {
  const Fixture f{cron_job({{"startingDeadlineSeconds", 10}, {"schedule", "0 * * * *"}})};
  // Due at 11:00; at 11:00:30 the deadline (10 s) has passed.
  EXPECT_TRUE(steps_of<CreateJob>(plan_sync(f.snapshot(at(60, 30)))).empty());
  EXPECT_EQ(steps_of<CreateJob>(plan_sync(f.snapshot(at(60, 5)))).size(), 1u);
}

TEST(PlanSync, ABadZoneOrScheduleFails) {
  const Fixture zone{cron_job({{"timeZone", "Mars/Olympus"}})};
  const Plan p = plan_sync(zone.snapshot(at(5)));
  EXPECT_EQ(steps_of<Event>(p).at(0).reason, "InvalidTimeZone");
  EXPECT_EQ(steps_of<Fail>(p).size(), 1u);

  const Fixture never{cron_job({{"schedule", "0 0 30 2 *"}})};
  const Plan q = plan_sync(never.snapshot(at(5)));
  EXPECT_EQ(steps_of<Event>(q).at(0).reason, "InvalidSchedule");
  EXPECT_EQ(steps_of<Fail>(q).at(0).error,
            "time difference between two schedules is less than 1 second");

  const Fixture tz{cron_job({{"schedule", "TZ=UTC * * * *"}})};
  EXPECT_EQ(steps_of<Event>(plan_sync(tz.snapshot(at(1, 1)))).at(0).reason, "UnsupportedSchedule");
}

TEST(PlanSync, ATemplateSpecThatIsNotJsonFailsTheRunNamingTheField) {
  Fixture f{cron_job()};
  f.template_spec = R"({"queue":)";
  const Plan p = plan_sync(f.snapshot(at(1, 2)));
  EXPECT_TRUE(steps_of<CreateJob>(p).empty());
  ASSERT_EQ(steps_of<Fail>(p).size(), 1u);
  EXPECT_NE(steps_of<Fail>(p)[0].error.find("spec.jobTemplate.spec"), std::string::npos);
}

TEST(PlanSync, NoTemplateSpecMakesAJobWithAnEmptySpec) {
  Fixture f{cron_job()};
  f.template_spec.clear();
  const auto creates = steps_of<CreateJob>(plan_sync(f.snapshot(at(1, 2))));
  ASSERT_EQ(creates.size(), 1u);
  EXPECT_EQ(creates[0].job["spec"], json::object());
}

}  // namespace
}  // namespace vc::controllers::cronjob
