#include "common/volcano/cron_job.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace vc::volcano {
namespace {

using nlohmann::json;
using testing::StrEq;
using testing::ThrowsMessage;

api::TimePoint at(const char* text) {
  return *api::parse_time(text);
}

json nightly() {
  return json::parse(R"({
    "apiVersion": "batch.volcano.sh/v1alpha1",
    "kind": "CronJob",
    "metadata": {"name": "nightly", "namespace": "ml", "uid": "cj-1", "resourceVersion": "40"},
    "spec": {
      "schedule": "0 2 * * *",
      "timeZone": "Europe/Paris",
      "startingDeadlineSeconds": 300,
      "concurrencyPolicy": "Forbid",
      "suspend": false,
      "successfulJobsHistoryLimit": 3,
      "failedJobsHistoryLimit": 1,
      "jobTemplate": {
        "metadata": {"labels": {"team": "ml"}, "annotations": {"owner": "ana"},
                     "finalizers": ["example.com/keep"]},
        "spec": {
          "schedulerName": "volcano", "minAvailable": 2, "queue": "batch",
          "runningEstimate": "2h",
          "tasks": [{"name": "worker", "replicas": 2,
                     "template": {"spec": {"containers": [{"name": "w", "image": "busybox"}]}}}]
        }
      }
    },
    "status": {
      "active": [{"kind": "Job", "namespace": "ml", "name": "nightly-28512000", "uid": "j-9",
                  "apiVersion": "batch.volcano.sh/v1alpha1", "resourceVersion": "41"}],
      "lastScheduleTime": "2024-03-17T01:00:00Z",
      "lastSuccessfulTime": "2024-03-16T01:20:31Z"
    }
  })");
}

TEST(DecodeCronJob, ReadsSpecJobTemplateAndStatus) {
  CronJob cj;
  decode_cron_job(nightly(), cj);
  EXPECT_EQ(cj.namespace_, "ml");
  EXPECT_EQ(cj.name, "nightly");
  EXPECT_EQ(cj.uid, "cj-1");
  const CronJobSpec& s = cj.spec;
  EXPECT_EQ(s.schedule, "0 2 * * *");
  EXPECT_EQ(s.time_zone, "Europe/Paris");
  EXPECT_EQ(s.starting_deadline_seconds, 300);
  EXPECT_EQ(s.concurrency_policy, concurrency_policy::kForbid);
  EXPECT_EQ(s.suspend, false);
  EXPECT_EQ(s.successful_jobs_history_limit, 3);
  EXPECT_EQ(s.failed_jobs_history_limit, 1);
  EXPECT_EQ(
      s.job_template.metadata,
      (JobTemplateMetadata{"", "", {{"team", "ml"}}, {{"owner", "ana"}}, {"example.com/keep"}}));
  const JobSpec& job = s.job_template.spec;
  EXPECT_EQ(job.scheduler_name, "volcano");
  EXPECT_EQ(job.min_available, 2);
  EXPECT_EQ(job.queue, "batch");
  EXPECT_EQ(job.running_estimate, std::chrono::hours(2));
  ASSERT_EQ(job.tasks.size(), 1u);
  EXPECT_EQ(job.tasks[0].replicas, 2);
  EXPECT_EQ(job.tasks[0].template_json()["spec"]["containers"][0]["image"], "busybox");
  ASSERT_EQ(cj.status.active.size(), 1u);
  EXPECT_EQ(cj.status.active[0].name, "nightly-28512000");
  EXPECT_EQ(cj.status.active[0].resource_version, "41");
  EXPECT_EQ(cj.status.last_schedule_time, at("2024-03-17T01:00:00Z"));
  EXPECT_EQ(cj.status.last_successful_time, at("2024-03-16T01:20:31Z"));
}

TEST(DecodeCronJob, UnsetPointersStayUnsetAndAnEmptyZoneIsKept) {
  CronJob cj;
  decode_cron_job(json::parse(R"({"spec": {"schedule": "@hourly", "timeZone": null}})"), cj);
  EXPECT_FALSE(cj.spec.time_zone.has_value());
  EXPECT_FALSE(cj.spec.suspend.has_value());
  EXPECT_FALSE(cj.spec.starting_deadline_seconds.has_value());
  EXPECT_FALSE(cj.spec.successful_jobs_history_limit.has_value());
  EXPECT_EQ(cj.spec.job_template.spec, JobSpec{});
  CronJob empty_zone;
  decode_cron_job(json::parse(R"({"spec": {"timeZone": ""}})"), empty_zone);
  EXPECT_EQ(empty_zone.spec.time_zone, "") << "\"\" is not nil: the webhook rejects it";
}

TEST(DecodeCronJob, ErrorsNameTheField) {
  json doc = nightly();
  doc["spec"]["jobTemplate"]["spec"]["tasks"][0]["replicas"] = "2";
  EXPECT_THAT(
      [&] {
        CronJob cj;
        decode_cron_job(doc, cj);
      },
      ThrowsMessage<DecodeError>(
          StrEq("spec.jobTemplate.spec.tasks[0].replicas: expected an integer, got string")));
  doc = nightly();
  doc["spec"]["jobTemplate"]["metadata"]["labels"]["team"] = 1;
  EXPECT_THAT(
      [&] {
        CronJob cj;
        decode_cron_job(doc, cj);
      },
      ThrowsMessage<DecodeError>(
          StrEq("spec.jobTemplate.metadata.labels[team]: expected a string, got number")));
  doc = nightly();
  doc["status"]["lastScheduleTime"] = "yesterday";
  EXPECT_THAT(
      [&] {
        CronJob cj;
        decode_cron_job(doc, cj);
      },
      ThrowsMessage<DecodeError>(
          StrEq("status.lastScheduleTime: invalid RFC 3339 time \"yesterday\"")));
}

// The expected documents were printed by Go's encoding/json for batch/v1alpha1 CronJobStatus:
// every member is omitempty, and so is each v1.ObjectReference member.
TEST(EncodeCronJobStatus, MatchesGo) {
  EXPECT_EQ(encode_cron_job_status(CronJobStatus{}), json::object());
  CronJobStatus s;
  s.active = {{"Job", "ml", "nightly-28512000", "j-9", "batch.volcano.sh/v1alpha1", "", ""}};
  s.last_schedule_time = at("2024-03-17T01:00:00.750Z");
  EXPECT_EQ(encode_cron_job_status(s), json::parse(R"({
    "active": [{"kind": "Job", "namespace": "ml", "name": "nightly-28512000", "uid": "j-9",
                "apiVersion": "batch.volcano.sh/v1alpha1"}],
    "lastScheduleTime": "2024-03-17T01:00:00Z"})"));
}

TEST(EncodeCronJobStatus, RoundTripsThroughTheDecoder) {
  CronJob cj;
  decode_cron_job(nightly(), cj);
  EXPECT_EQ(encode_cron_job_status(cj.status), nightly()["status"]);
  EXPECT_EQ(decode_cron_job_status(encode_cron_job_status(cj.status), FieldPath()), cj.status);
}

}  // namespace
}  // namespace vc::volcano
