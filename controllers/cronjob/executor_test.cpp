// The executor against an in-process API server, on the paths where the cache may lag our own
// writes: an active reference the Job cache lacks is re-read before it is dropped, a Replace finds
// its Job already deleted by an earlier try, and an orphan check re-reads a Job we just deleted.
#include "controllers/cronjob/executor.h"

#include <gtest/gtest.h>

#include "common/kube/events/fake_recorder.h"
#include "common/testing/fake_apiserver.h"

namespace vc::controllers::cronjob {
namespace {

using nlohmann::json;
using testing::FakeApiServer;
using testing::Request;
using testing::Response;

constexpr const char* kJobs = "/apis/batch.volcano.sh/v1alpha1/namespaces/ml/jobs";
constexpr const char* kCronJob = "/apis/batch.volcano.sh/v1alpha1/namespaces/ml/cronjobs/nightly";
const std::string kStatus = std::string(kCronJob) + "/status";

volcano::ObjectReference ref(const std::string& name, const std::string& uid) {
  return {.kind = "Job",
          .namespace_ = "ml",
          .name = name,
          .uid = uid,
          .api_version = "batch.volcano.sh/v1alpha1",
          .resource_version = "",
          .field_path = ""};
}

json job_json(const std::string& name, const std::string& uid) {
  return {{"apiVersion", "batch.volcano.sh/v1alpha1"},
          {"kind", "Job"},
          {"metadata", {{"namespace", "ml"}, {"name", name}, {"uid", uid}}}};
}

CronJobView cron_job_with_active(std::vector<volcano::ObjectReference> active) {
  CronJobView cj;
  cj.namespace_ = "ml";
  cj.name = "nightly";
  cj.uid = "cj-uid";
  cj.resource_version = "7";
  cj.status.active = std::move(active);
  return cj;
}

Plan plan_of(const CronJobView& cj, std::vector<Step> steps) {
  Plan p;
  p.steps = std::move(steps);
  p.status = cj.status;
  return p;
}

// The status the executor wrote: the names in its status.active; fails without exactly one write.
std::vector<std::string> written_active(const FakeApiServer& server) {
  std::vector<std::string> names;
  int writes = 0;
  for (const Request& r : server.requests()) {
    if (r.method != "PUT" || r.path != kStatus) continue;
    ++writes;
    for (const auto& a : r.json()["status"].value("active", json::array()))
      names.push_back(a["name"]);
  }
  EXPECT_EQ(writes, 1) << server.describe_requests();
  return names;
}

int status_writes(const FakeApiServer& server) {
  int n = 0;
  for (const Request& r : server.requests()) n += r.method == "PUT" && r.path == kStatus;
  return n;
}

// Status writes succeed and move the CronJob from version 7 to 8.
void serve_status_writes(FakeApiServer& server) {
  server.handle("PUT", kStatus, [](const Request& r) {
    json stored = r.json();
    stored["metadata"]["resourceVersion"] = "8";
    return Response::json(200, stored);
  });
}

// The case users met: the Job was created and recorded a moment ago; the Job cache lacks it.
TEST(CronJobExecutor, AnActiveJobTheCacheHasNotSeenYetStays) {
  FakeApiServer server;
  server.handle("GET", std::string(kJobs) + "/nightly-1",
                [](const Request&) { return Response::json(200, job_json("nightly-1", "u1")); });
  serve_status_writes(server);
  kube::Client client(server.config());
  kube::events::FakeRecorder recorder;
  const CronJobView cj = cron_job_with_active({ref("nightly-1", "u1")});

  const Outcome out =
      execute(plan_of(cj, {VerifyActive{ref("nightly-1", "u1")}}), cj, client, recorder);
  EXPECT_EQ(out.error, "");
  EXPECT_EQ(out.status_written, "");
  EXPECT_EQ(status_writes(server), 0);
  EXPECT_TRUE(recorder.lines().empty());
}

TEST(CronJobExecutor, AnActiveJobThatIsGoneOrReplacedIsDroppedAsStale) {
  FakeApiServer server;  // nightly-1: 404 (unhandled); nightly-2: another UID under the name
  server.handle("GET", std::string(kJobs) + "/nightly-2",
                [](const Request&) { return Response::json(200, job_json("nightly-2", "u9")); });
  serve_status_writes(server);
  kube::Client client(server.config());
  kube::events::FakeRecorder recorder;
  const CronJobView cj =
      cron_job_with_active({ref("nightly-1", "u1"), ref("nightly-2", "u2"), ref("keep", "u3")});

  const Outcome out = execute(
      plan_of(cj, {VerifyActive{ref("nightly-1", "u1")}, VerifyActive{ref("nightly-2", "u2")}}), cj,
      client, recorder);
  EXPECT_EQ(out.error, "");
  EXPECT_EQ(out.status_written, "8");
  EXPECT_EQ(written_active(server), std::vector<std::string>{"keep"});
  EXPECT_EQ(recorder.lines(),
            (std::vector<std::string>{
                "Warning StaleReference Active job \"nightly-1\" no longer exists (UID: u1)",
                "Warning StaleReference Active job reference \"nightly-2\" points to a different "
                "UID (expected: u2, actual: u9)"}));
}

// The cache still held the CronJob when its namespace's teardown deleted it: the status write's
// 404 ends the sync (no retry planning from the same stale copy, repeating its events).
TEST(CronJobExecutor, AStatusWriteThatFindsTheCronJobGoneEndsTheSync) {
  FakeApiServer server;  // GET nightly-1 and PUT status: 404 (unhandled)
  kube::Client client(server.config());
  kube::events::FakeRecorder recorder;
  const CronJobView cj = cron_job_with_active({ref("nightly-1", "u1")});

  const Outcome out =
      execute(plan_of(cj, {VerifyActive{ref("nightly-1", "u1")}}), cj, client, recorder);
  EXPECT_EQ(out.error, "");
  EXPECT_FALSE(out.requeue_after.has_value());
  EXPECT_EQ(out.status_written, "");
  EXPECT_EQ(status_writes(server), 1) << server.describe_requests();
}

TEST(CronJobExecutor, AFailedReadOfAnActiveJobFailsTheSyncAndDropsNothing) {
  FakeApiServer server;
  server.handle("GET", std::string(kJobs) + "/nightly-1",
                [](const Request&) { return Response::error(500, "InternalError", "etcd"); });
  kube::ClientOptions no_retries;
  no_retries.max_retries = 0;
  kube::Client client(server.config(), no_retries);
  kube::events::FakeRecorder recorder;
  const CronJobView cj = cron_job_with_active({ref("nightly-1", "u1")});

  const Outcome out =
      execute(plan_of(cj, {VerifyActive{ref("nightly-1", "u1")}}), cj, client, recorder);
  EXPECT_NE(out.error.find("nightly-1"), std::string::npos) << out.error;
  EXPECT_EQ(status_writes(server), 0);
  EXPECT_TRUE(recorder.lines().empty());
}

// A Replace deleted the running Job, then its create failed: the retry finds the Job gone, which
// is what Replace wanted, not a failure to read it.
TEST(CronJobExecutor, ReplacingAJobAnEarlierTryDeletedIsNoFailure) {
  FakeApiServer server;  // GET nightly-1: 404
  server.handle("POST", kJobs, [](const Request& r) {
    json made = r.json();
    made["metadata"]["uid"] = "u2";
    return Response::json(201, made);
  });
  serve_status_writes(server);
  kube::Client client(server.config());
  kube::events::FakeRecorder recorder;
  const CronJobView cj = cron_job_with_active({ref("nightly-1", "u1")});
  json new_job = job_json("nightly-2", "");
  new_job["metadata"].erase("uid");

  const Outcome out = execute(
      plan_of(cj, {ReplaceActive{{ref("nightly-1", "u1")}},
                   CreateJob{.job = new_job, .scheduled = api::TimePoint{}, .requeue_after = {}}}),
      cj, client, recorder);
  EXPECT_EQ(out.error, "");
  EXPECT_EQ(written_active(server), std::vector<std::string>{"nightly-2"});
  EXPECT_EQ(recorder.lines(),
            (std::vector<std::string>{"Normal SuccessfulCreate Created job nightly-2 for CronJob "
                                      "ml/nightly"}));
}

TEST(CronJobExecutor, AJobWeJustDeletedIsNoOrphanButAForgottenRunningOneIs) {
  FakeApiServer server;
  server.handle("GET", kCronJob, [](const Request&) {
    return Response::json(
        200, {{"metadata", {{"name", "nightly"}}}, {"status", {{"active", json::array()}}}});
  });
  // nightly-0: deleted (404); nightly-1: being deleted; nightly-2: there, forgotten.
  server.handle("GET", std::string(kJobs) + "/nightly-1", [](const Request&) {
    json j = job_json("nightly-1", "u1");
    j["metadata"]["deletionTimestamp"] = "2024-01-15T10:00:00Z";
    return Response::json(200, j);
  });
  server.handle("GET", std::string(kJobs) + "/nightly-2",
                [](const Request&) { return Response::json(200, job_json("nightly-2", "u2")); });
  kube::Client client(server.config());
  kube::events::FakeRecorder recorder;
  const CronJobView cj = cron_job_with_active({});

  const Outcome out =
      execute(plan_of(cj, {CheckOrphan{"nightly-0", "u0"}, CheckOrphan{"nightly-1", "u1"},
                           CheckOrphan{"nightly-2", "u2"}}),
              cj, client, recorder);
  EXPECT_EQ(out.error, "");
  EXPECT_EQ(recorder.lines(),
            (std::vector<std::string>{"Warning OrphanedJob Detected orphaned job forgotten or not "
                                      "managed by controller: nightly-2 (UID: u2)"}));
}

}  // namespace
}  // namespace vc::controllers::cronjob
