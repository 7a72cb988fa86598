#include "controllers/job/verdict/verdict_plan.h"

#include <gtest/gtest.h>

namespace vc::controllers::job::verdict {
namespace {

using namespace std::chrono_literals;

const api::TimePoint kNow = api::TimePoint{} + std::chrono::hours(1000);

JobFacts job(std::string name, std::string phase, std::chrono::seconds age,
             std::string queue = "default") {
  return JobFacts{"ns", name, "uid-" + name, std::move(queue), std::move(phase), kNow - age};
}

std::vector<std::string> names(const std::vector<const JobFacts*>& picked) {
  std::vector<std::string> out;
  for (const JobFacts* j : picked) out.push_back(j->name);
  return out;
}

TEST(VerdictPlanTest, PhaseAloneDecidesStartedAndFinishedJobs) {
  EXPECT_EQ(verdict_from_phase("Completed"), Verdict::Finished);
  for (const char* p : {"Failed", "Aborted", "Terminated"}) {
    EXPECT_EQ(verdict_from_phase(p), Verdict::Failed) << p;
  }
  for (const char* p : {"Running", "Restarting", "Completing", "Aborting", "Terminating"}) {
    EXPECT_EQ(verdict_from_phase(p), Verdict::Progressing) << p;
  }
  EXPECT_EQ(verdict_from_phase("Pending"), std::nullopt);
  EXPECT_EQ(verdict_from_phase(""), std::nullopt);
}

TEST(VerdictPlanTest, PicksJobsNotStartedPastTheGraceNeverDiagnosedFirst) {
  const std::vector<JobFacts> jobs{
      job("running", "Running", 300s),
      job("young", "Pending", 5s),
      job("diagnosed", "Pending", 600s),
      job("new-old", "Pending", 400s),
      job("new-newer", "", 100s),
      job("done", "Completed", 900s),
      job("diagnosed-late", "Pending", 700s),
  };
  Memories memory;
  memory["uid-diagnosed"].diagnosed = kNow - 60s;
  memory["uid-diagnosed-late"].diagnosed = kNow - 30s;
  PassOptions options;
  EXPECT_EQ(names(pick_diagnoses(jobs, memory, kNow, options)),
            (std::vector<std::string>{"new-old", "new-newer", "diagnosed", "diagnosed-late"}));
  options.max_diagnoses = 3;
  EXPECT_EQ(names(pick_diagnoses(jobs, memory, kNow, options)),
            (std::vector<std::string>{"new-old", "new-newer", "diagnosed"}));
  options.max_diagnoses = 0;
  EXPECT_TRUE(pick_diagnoses(jobs, memory, kNow, options).empty());
}

TEST(VerdictPlanTest, AJobWithoutCreationTimeIsNotPicked) {
  std::vector<JobFacts> jobs{job("odd", "Pending", 600s)};
  jobs[0].created.reset();
  EXPECT_TRUE(pick_diagnoses(jobs, {}, kNow, {}).empty());
}

// A diagnosis, as the pass makes one: observed, then asked about.
bool diagnosed(Memory& m, Verdict v, api::TimePoint at, const PassOptions& options = {}) {
  m.observe(v);
  return should_announce(m, v, at, options);
}

TEST(VerdictPlanTest, AnnouncesAStopSeenTwiceInARowOnceWhileItLasts) {
  Memory m;
  EXPECT_FALSE(diagnosed(m, Verdict::Progressing, kNow));
  EXPECT_FALSE(diagnosed(m, Verdict::Progressing, kNow));
  // One diagnosis may catch a job the scheduler has not reached yet: the stop must hold.
  EXPECT_FALSE(diagnosed(m, Verdict::WaitingForCapacity, kNow));
  EXPECT_TRUE(diagnosed(m, Verdict::WaitingForCapacity, kNow + 1min));
  // The same stop seen on later passes: no new event.
  EXPECT_FALSE(diagnosed(m, Verdict::WaitingForCapacity, kNow + 1h));
  // Another stop: announced once it holds, and the interval has passed since the last event.
  EXPECT_FALSE(diagnosed(m, Verdict::ConfigurationError, kNow + 1h));
  EXPECT_FALSE(diagnosed(m, Verdict::ConfigurationError, kNow + 1min));
  EXPECT_TRUE(diagnosed(m, Verdict::ConfigurationError, kNow + 2h));
  EXPECT_FALSE(diagnosed(m, Verdict::ConfigurationError, kNow + 3h));
  EXPECT_FALSE(diagnosed(m, Verdict::Failed, kNow + 4h));
  EXPECT_FALSE(diagnosed(m, Verdict::Failed, kNow + 5h));
  EXPECT_FALSE(diagnosed(m, Verdict::Finished, kNow + 6h));
}

TEST(VerdictPlanTest, AStopThatDoesNotHoldIsNotAnnounced) {
  Memory m;
  EXPECT_FALSE(diagnosed(m, Verdict::WaitingForCapacity, kNow));
  EXPECT_FALSE(diagnosed(m, Verdict::Progressing, kNow + 1min));
  EXPECT_FALSE(diagnosed(m, Verdict::WaitingForCapacity, kNow + 2min));
  EXPECT_FALSE(diagnosed(m, Verdict::ConfigurationError, kNow + 3min));
  EXPECT_EQ(m.announced, std::nullopt);
}

TEST(VerdictPlanTest, AJobThatMovesOnIsAnnouncedAgainWhenItStopsAgain) {
  Memory m;
  ASSERT_FALSE(diagnosed(m, Verdict::WaitingForCapacity, kNow));
  ASSERT_TRUE(diagnosed(m, Verdict::WaitingForCapacity, kNow));
  m.observe(Verdict::Progressing);  // its phase: Running
  EXPECT_EQ(m.announced, std::nullopt);
  EXPECT_FALSE(diagnosed(m, Verdict::WaitingForCapacity, kNow + 1min));
  // Flapping within the interval stays quiet; after it, the new stop is news.
  EXPECT_FALSE(diagnosed(m, Verdict::WaitingForCapacity, kNow + 5min));
  EXPECT_TRUE(diagnosed(m, Verdict::WaitingForCapacity, kNow + 10min));
}

TEST(VerdictPlanTest, CountsJobsPerQueueFromPhaseThenDiagnosisThenProgressing) {
  const std::vector<JobFacts> jobs{
      job("a", "Running", 60s, "q1"), job("b", "Pending", 60s, "q1"),
      job("c", "Pending", 60s, "q1"), job("d", "Completed", 60s, "q2"),
      job("e", "Failed", 60s, "q2"),  job("f", "Pending", 60s, "q2"),
  };
  Memories memory;
  memory["uid-b"].verdict = Verdict::ConfigurationError;
  memory["uid-f"].verdict = Verdict::WaitingForCapacity;
  const auto counts = count_by_queue(jobs, memory);
  const std::map<std::pair<std::string, Verdict>, long> want{
      {{"q1", Verdict::Progressing}, 2},        {{"q1", Verdict::ConfigurationError}, 1},
      {{"q2", Verdict::Finished}, 1},           {{"q2", Verdict::Failed}, 1},
      {{"q2", Verdict::WaitingForCapacity}, 1},
  };
  EXPECT_EQ(counts, want);
}

TEST(VerdictPlanTest, SettleTakesPhaseVerdictsAndForgetsGoneJobs) {
  Memories memory;
  memory["uid-started"].verdict = Verdict::WaitingForCapacity;
  memory["uid-started"].announced = Verdict::WaitingForCapacity;
  memory["uid-gone"].verdict = Verdict::ConfigurationError;
  memory["uid-waiting"].verdict = Verdict::WaitingForCapacity;
  settle(memory, {job("started", "Running", 60s), job("waiting", "Pending", 60s),
                  job("finished", "Completed", 60s)});
  ASSERT_EQ(memory.size(), 2u);
  EXPECT_EQ(memory["uid-started"].verdict, Verdict::Progressing);
  EXPECT_EQ(memory["uid-started"].announced, std::nullopt);
  EXPECT_EQ(memory["uid-waiting"].verdict, Verdict::WaitingForCapacity);
}

}  // namespace
}  // namespace vc::controllers::job::verdict
