#include "controllers/garbagecollector/cleaner.h"

#include <chrono>

#include <gtest/gtest.h>

#include "controllers/garbagecollector/gc_test_util.h"

namespace vc::controllers::gc {
namespace {

using namespace std::chrono_literals;
using namespace testing_util;
using Kind = CleanupOutcome::Kind;

const api::TimePoint kNow = *api::parse_time("2024-05-01T12:00:00Z");

class CleanerTest : public ::testing::Test {
 protected:
  CleanerTest()
      : jobs_(server_, {job("ns", "done", "Completed", 5, kNow - 60s, "uid-done")}),
        client_(server_.config(), no_retries()) {}

  std::vector<Request> deletes() const {
    return requests_to(server_, "DELETE", job_path("ns", "done"));
  }

  FakeApiServer server_;
  FakeJobs jobs_;
  kube::Client client_;
};

TEST_F(CleanerTest, ExpiredJobIsDeletedInForegroundWithItsUidAsPrecondition) {
  const CleanupOutcome out = clean_up(client_, "ns", "done", kNow);
  EXPECT_EQ(out.kind, Kind::Deleted) << out.error;
  const auto gets = requests_to(server_, "GET", job_path("ns", "done"));
  ASSERT_EQ(gets.size(), 1u) << server_.describe_requests();
  ASSERT_EQ(deletes().size(), 1u) << server_.describe_requests();
  const json body = deletes()[0].json();
  EXPECT_EQ(body["propagationPolicy"], "Foreground");
  EXPECT_EQ(body["preconditions"]["uid"], "uid-done");
}

TEST_F(CleanerTest, FreshCopyThatFinishedLaterIsRecheckedNotDeleted) {
  jobs_.set_fresh("done", job("ns", "done", "Completed", 5, kNow - 2s, "uid-done"));
  const CleanupOutcome out = clean_up(client_, "ns", "done", kNow);
  EXPECT_EQ(out.kind, Kind::RecheckAfter);
  EXPECT_EQ(out.after, 3000ms);
  EXPECT_TRUE(deletes().empty()) << server_.describe_requests();
}

TEST_F(CleanerTest, FreshCopyWhoseTtlWasRemovedIsLeftAlone) {
  jobs_.set_fresh("done", job("ns", "done", "Completed", std::nullopt, kNow - 60s, "uid-done"));
  EXPECT_EQ(clean_up(client_, "ns", "done", kNow).kind, Kind::Gone);
  EXPECT_TRUE(deletes().empty()) << server_.describe_requests();
}

TEST_F(CleanerTest, FreshCopyThatRestartedIsLeftAlone) {
  jobs_.set_fresh("done", job("ns", "done", "Running", 5, kNow - 60s, "uid-done"));
  EXPECT_EQ(clean_up(client_, "ns", "done", kNow).kind, Kind::Gone);
  EXPECT_TRUE(deletes().empty()) << server_.describe_requests();
}

// Our Foreground delete was accepted, but the cache still holds the job as it was and judges it
// expired again: the live copy shows the deletionTimestamp, so the job is kept, not deleted twice.
TEST_F(CleanerTest, AJobWeAlreadyDeletedThatTheCacheStillHoldsIsNotDeletedAgain) {
  ASSERT_EQ(clean_up(client_, "ns", "done", kNow).kind, Kind::Deleted);
  json being_deleted = job("ns", "done", "Completed", 5, kNow - 60s, "uid-done");
  being_deleted["metadata"]["deletionTimestamp"] = api::format_rfc3339(kNow - 1s);
  jobs_.set_fresh("done", being_deleted);

  EXPECT_EQ(clean_up(client_, "ns", "done", kNow).kind, Kind::Gone);
  EXPECT_EQ(requests_to(server_, "GET", job_path("ns", "done")).size(), 2u);
  EXPECT_EQ(deletes().size(), 1u) << server_.describe_requests();
}

TEST_F(CleanerTest, JobAlreadyGoneIsDoneWithoutDelete) {
  EXPECT_EQ(clean_up(client_, "ns", "missing", kNow).kind, Kind::Gone);
  EXPECT_TRUE(requests_to(server_, "DELETE", job_path("ns", "missing")).empty());
}

TEST_F(CleanerTest, DeleteNotFoundMeansSomeoneElseWon) {
  jobs_.script_delete("done", Response::error(404, "NotFound", "gone"));
  EXPECT_EQ(clean_up(client_, "ns", "done", kNow).kind, Kind::Gone);
}

TEST_F(CleanerTest, UidPreconditionConflictMeansTheNameWasReused) {
  jobs_.script_delete("done", Response::error(409, "Conflict",
                                              "Precondition failed: UID in "
                                              "precondition: uid-done"));
  EXPECT_EQ(clean_up(client_, "ns", "done", kNow).kind, Kind::Gone);
}

TEST_F(CleanerTest, ServerErrorsAreRetriedWithTheReason) {
  jobs_.script_delete("done", Response::error(500, "InternalError", "etcd is sad"));
  const CleanupOutcome out = clean_up(client_, "ns", "done", kNow);
  EXPECT_EQ(out.kind, Kind::Retry);
  EXPECT_NE(out.error.find("etcd is sad"), std::string::npos) << out.error;
}

TEST_F(CleanerTest, ForbiddenGetIsRetried) {
  server_.handle("GET", job_path("ns", "done"),
                 [](const Request&) { return Response::error(403, "Forbidden", "no rbac"); });
  const CleanupOutcome out = clean_up(client_, "ns", "done", kNow);
  EXPECT_EQ(out.kind, Kind::Retry);
  EXPECT_NE(out.error.find("no rbac"), std::string::npos) << out.error;
  EXPECT_TRUE(deletes().empty());
}

}  // namespace
}  // namespace vc::controllers::gc
