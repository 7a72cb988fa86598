#include "common/volcano/job_decode.h"

#include <stdexcept>

#include <gtest/gtest.h>

#include "common/api/time.h"

namespace vc::volcano {
namespace {

using nlohmann::json;

JobStatus decode_status(const json& status) {
  return decode_job_status(status, FieldPath().key("status"));
}

api::TimePoint at(const char* text) {
  return *api::parse_time(text);
}

JobStatus full_status() {
  JobStatus s;
  s.phase = "Running";
  s.last_transition_time = at("2024-01-02T03:04:05Z");
  s.min_available = 3;
  s.task_status_count = {{"ps", {}}, {"worker", {{"Running", 2}}}};
  s.running = 2;
  s.version = 1;
  s.running_duration = "1m2s";
  s.controlled_resources = {{"plugin-svc", "svc"}};
  s.conditions = {{"Pending", at("2024-01-02T03:04:05Z")}, {"Running", std::nullopt}};
  return s;
}

// The expected documents were printed by Go's encoding/json for the same batch/v1alpha1
// JobStatus values.
TEST(DecodeJob, OwnerReferencesAndTheControllerAmongThem) {
  Job job;
  decode_job(json::parse(R"({"metadata": {"ownerReferences": [
      {"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "uid": "u0"},
      {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "CronJob", "name": "nightly",
       "uid": "u1", "controller": true, "blockOwnerDeletion": true}]}})"),
             job, TemplateMode::kIntern);
  ASSERT_EQ(job.owner_references.size(), 2u);
  ASSERT_NE(job.controller_ref(), nullptr);
  EXPECT_EQ(job.controller_ref()->name, "nightly");
  Job none;
  decode_job(json::object(), none, TemplateMode::kIntern);
  EXPECT_EQ(none.controller_ref(), nullptr);
  EXPECT_THROW(decode_job(json::parse(R"({"metadata": {"ownerReferences": [{"uid": 5}]}})"), none,
                          TemplateMode::kIntern),
               DecodeError);
}

TEST(StatusToJson, EmptyStatusIsGosShapeWithNullTransitionTime) {
  EXPECT_EQ(encode_job_status(JobStatus{}),
            json::parse(R"({"state":{"lastTransitionTime":null}})"));
}

TEST(StatusToJson, MatchesGoForAPopulatedStatus) {
  const json go = json::parse(
      R"({"state":{"phase":"Running","lastTransitionTime":"2024-01-02T03:04:05Z"},)"
      R"("minAvailable":3,"taskStatusCount":{"ps":{},"worker":{"phase":{"Running":2}}},)"
      R"("running":2,"version":1,"runningDuration":"1m2s",)"
      R"("controlledResources":{"plugin-svc":"svc"},)"
      R"("conditions":[{"status":"Pending","lastTransitionTime":"2024-01-02T03:04:05Z"},)"
      R"({"status":"Running"}]})");
  EXPECT_EQ(encode_job_status(full_status()), go);
}

TEST(StatusToJson, WritesEveryCounterWhenNonZeroAndReasonAndMessage) {
  JobStatus s;
  s.reason = "r";
  s.message = "m";
  s.pending = 1;
  s.succeeded = 2;
  s.failed = 3;
  s.terminating = 4;
  s.unknown = 5;
  s.retry_count = 6;
  const json out = encode_job_status(s);
  EXPECT_EQ(out["state"], json::parse(R"({"reason":"r","message":"m","lastTransitionTime":null})"));
  EXPECT_EQ(out["pending"], 1);
  EXPECT_EQ(out["succeeded"], 2);
  EXPECT_EQ(out["failed"], 3);
  EXPECT_EQ(out["terminating"], 4);
  EXPECT_EQ(out["unknown"], 5);
  EXPECT_EQ(out["retryCount"], 6);
  EXPECT_FALSE(out.contains("running"));
  EXPECT_FALSE(out.contains("conditions"));
}

TEST(StatusToJson, TimestampsAreWholeSeconds) {
  JobStatus s;
  s.last_transition_time = at("2024-01-02T03:04:05.987654Z");
  s.conditions = {{"Pending", s.last_transition_time}};
  const json out = encode_job_status(s);
  EXPECT_EQ(out["state"]["lastTransitionTime"], "2024-01-02T03:04:05Z");
  EXPECT_EQ(out["conditions"][0]["lastTransitionTime"], "2024-01-02T03:04:05Z");
}

TEST(StatusJson, RoundTripsEveryField) {
  JobStatus s = full_status();
  s.reason = "because";
  s.message = "it said so";
  s.pending = 1;
  s.succeeded = 2;
  s.failed = 3;
  s.terminating = 4;
  s.unknown = 5;
  s.retry_count = 6;
  EXPECT_EQ(decode_status(encode_job_status(s)), s);
  EXPECT_EQ(decode_status(encode_job_status(JobStatus{})), JobStatus{});
}

TEST(StatusJson, GoDocumentRoundTripsToTheSameJson) {
  const json go = encode_job_status(full_status());
  EXPECT_EQ(encode_job_status(decode_status(go)), go);
}

TEST(StatusFromJson, ErrorsNameTheStatusField) {
  try {
    decode_status(json::parse(R"({"conditions":[{"status":1}]})"));
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "status.conditions[0].status: expected a string, got number");
  }
  EXPECT_THROW(decode_status(json::array()), std::invalid_argument);
  EXPECT_THROW(decode_status(json::parse(R"({"version":1.5})")), std::invalid_argument);
}

TEST(StatusUpdateBody, CarriesIdentityResourceVersionAndStatusOnly) {
  Job job;
  job.namespace_ = "ns";
  job.name = "job1";
  job.uid = "u-1";
  job.resource_version = "42";
  job.labels = {{"a", "b"}};
  job.spec.queue = "default";
  const json body = job_status_update_body(job, full_status());
  const json expected = {
      {"apiVersion", "batch.volcano.sh/v1alpha1"},
      {"kind", "Job"},
      {"metadata",
       {{"name", "job1"}, {"namespace", "ns"}, {"uid", "u-1"}, {"resourceVersion", "42"}}},
      {"status", encode_job_status(full_status())}};
  EXPECT_EQ(body, expected);
}

TEST(StatusUpdateBody, OmitsEmptyUidAndResourceVersion) {
  Job job;
  job.namespace_ = "ns";
  job.name = "job1";
  const json meta = job_status_update_body(job, JobStatus{})["metadata"];
  EXPECT_EQ(meta, json::parse(R"({"name":"job1","namespace":"ns"})"));
}

}  // namespace
}  // namespace vc::volcano
