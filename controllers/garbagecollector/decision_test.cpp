#include "controllers/garbagecollector/decision.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace vc::controllers::gc {
namespace {

using namespace std::chrono_literals;
using Kind = Decision::Kind;

const api::TimePoint kNow = *api::parse_time("2024-05-01T12:00:00Z");

struct Row {
  const char* what;
  std::string phase;
  std::optional<int64_t> ttl;
  std::optional<std::chrono::seconds> finished_ago;  // nullopt: no lastTransitionTime
  bool being_deleted;
  Kind want;
  std::chrono::milliseconds want_after;
};

GcJob job_for(const Row& r) {
  GcJob j;
  j.namespace_ = "ns";
  j.name = "job";
  j.uid = "u1";
  j.phase = r.phase;
  j.ttl_seconds = r.ttl;
  j.being_deleted = r.being_deleted;
  if (r.finished_ago) j.transitioned = kNow - *r.finished_ago;
  return j;
}

TEST(GcDecision, TableOfJobsAndTheirFate) {
  const std::vector<Row> rows = {
      {"completed, ttl 0", "Completed", 0, 0s, false, Kind::DeleteNow, 0ms},
      {"failed, ttl passed", "Failed", 5, 6s, false, Kind::DeleteNow, 0ms},
      {"terminated, ttl exactly now", "Terminated", 5, 5s, false, Kind::DeleteNow, 0ms},
      {"completed, fresh, ttl 3s", "Completed", 3, 0s, false, Kind::RecheckAfter, 3000ms},
      {"failed, 2s left", "Failed", 10, 8s, false, Kind::RecheckAfter, 2000ms},
      {"finished in the future (skew)", "Completed", 5, -10s, false, Kind::RecheckAfter, 15000ms},
      {"running is not finished", "Running", 0, 100s, false, Kind::Keep, 0ms},
      {"aborted is not finished", "Aborted", 0, 100s, false, Kind::Keep, 0ms},
      {"aborting is not finished", "Aborting", 0, 100s, false, Kind::Keep, 0ms},
      {"completing is not finished", "Completing", 0, 100s, false, Kind::Keep, 0ms},
      {"terminating is not finished", "Terminating", 0, 100s, false, Kind::Keep, 0ms},
      {"pending is not finished", "Pending", 0, 100s, false, Kind::Keep, 0ms},
      {"no phase", "", 0, 100s, false, Kind::Keep, 0ms},
      {"no ttl", "Completed", std::nullopt, 100s, false, Kind::Keep, 0ms},
      {"already being deleted", "Completed", 0, 100s, true, Kind::Keep, 0ms},
      {"finished without a transition time", "Completed", 5, std::nullopt, false, Kind::Error, 0ms},
  };
  for (const Row& r : rows) {
    const Decision d = decide(job_for(r), kNow);
    EXPECT_EQ(d.kind, r.want) << r.what << ": got " << to_string(d.kind);
    EXPECT_EQ(d.after, r.want_after) << r.what;
  }
}

TEST(GcDecision, MissingFinishTimeNamesTheJob) {
  Row r{"", "Failed", 1, std::nullopt, false, Kind::Error, 0ms};
  EXPECT_EQ(decide(job_for(r), kNow).error, "unable to find the time when the Job ns/job finished");
}

TEST(GcDecision, FutureFinishTimeIsFlaggedAsClockSkew) {
  Row future{"", "Completed", 5, -10s, false, Kind::RecheckAfter, 0ms};
  Row past{"", "Completed", 5, 1s, false, Kind::RecheckAfter, 0ms};
  EXPECT_TRUE(decide(job_for(future), kNow).clock_skew);
  EXPECT_FALSE(decide(job_for(past), kNow).clock_skew);
}

TEST(GcDecision, RemainingTimeIsRoundedUpToTheMillisecond) {
  GcJob j = job_for({"", "Completed", 1, 0s, false, Kind::RecheckAfter, 0ms});
  j.transitioned = kNow - 1us;  // 999.999 ms left
  const Decision d = decide(j, kNow);
  EXPECT_EQ(d.kind, Kind::RecheckAfter);
  EXPECT_EQ(d.after, 1000ms);
}

TEST(GcDecision, OnlyCompletedFailedAndTerminatedAreFinished) {
  for (const char* p : {"Completed", "Failed", "Terminated"})
    EXPECT_TRUE(is_finished_phase(p)) << p;
  for (const char* p : {"Aborted", "Aborting", "Completing", "Terminating", "Running", "Pending",
                        "Restarting", "completed", ""}) {
    EXPECT_FALSE(is_finished_phase(p)) << p;
  }
}

}  // namespace
}  // namespace vc::controllers::gc
