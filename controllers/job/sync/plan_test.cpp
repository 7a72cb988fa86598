#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "controllers/job/sync/plan.h"
#include "controllers/job/sync/test_fixtures.h"

namespace vc::controllers::job {
namespace {

using sync_test::make_job;
using sync_test::make_task;
using sync_test::names;
using sync_test::PodBuilder;

std::vector<std::string> names(const std::vector<PodToCreate>& pods) {
  std::vector<std::string> out;
  for (const auto& p : pods) out.push_back(p.task + "/" + std::to_string(p.index) + "=" + p.name);
  return out;
}

Job two_task_job() {
  Job job = make_job();
  job.spec.tasks = {make_task("ps", 1), make_task("worker", 3)};
  job.spec.min_available = 4;
  return job;
}

TEST(PlanSync, MissingPodsAreCreatedInSpecTaskOrderThenIndexOrder) {
  Job job = two_task_job();
  SyncPlan plan = plan_sync(job, {PodBuilder(job, "worker", 1, "Running")});
  EXPECT_EQ(names(plan.create),
            (std::vector<std::string>{"ps/0=job1-ps-0", "worker/0=job1-worker-0",
                                      "worker/2=job1-worker-2"}));
  EXPECT_TRUE(plan.remove.empty());
  EXPECT_EQ(plan.status.running, 1);
}

TEST(PlanSync, PodsAreClassifiedByPhaseAndIntoTaskStatusCount) {
  Job job = make_job();
  job.spec.tasks = {make_task("a", 5)};
  SyncPlan plan =
      plan_sync(job, {PodBuilder(job, "a", 0, "Pending"), PodBuilder(job, "a", 1, "Running"),
                      PodBuilder(job, "a", 2, "Succeeded"), PodBuilder(job, "a", 3, "Failed"),
                      PodBuilder(job, "a", 4, "")});
  EXPECT_TRUE(plan.create.empty());
  EXPECT_EQ(plan.status.pending, 1);
  EXPECT_EQ(plan.status.running, 1);
  EXPECT_EQ(plan.status.succeeded, 1);
  EXPECT_EQ(plan.status.failed, 1);
  EXPECT_EQ(plan.status.unknown, 1);
  EXPECT_EQ(plan.status.terminating, 0);
  TaskPhaseCounts expected{
      {"Pending", 1}, {"Running", 1}, {"Succeeded", 1}, {"Failed", 1}, {"Unknown", 1}};
  ASSERT_EQ(plan.status.task_status_count.size(), 1u);
  EXPECT_EQ(plan.status.task_status_count.at("a"), expected);
}

TEST(PlanSync, PodWithDeletionTimestampIsTerminatingAndNotClassified) {
  Job job = make_job();
  job.spec.tasks = {make_task("a", 2)};
  SyncPlan plan = plan_sync(
      job, {PodBuilder(job, "a", 0, "Running").deleting(), PodBuilder(job, "a", 1, "Running")});
  EXPECT_EQ(plan.status.terminating, 1);
  EXPECT_EQ(plan.status.running, 1);
  EXPECT_EQ(plan.status.task_status_count.at("a").at("Running"), 1);
  EXPECT_TRUE(plan.create.empty()) << "a terminating pod is not re-created while it exists";
  EXPECT_TRUE(plan.remove.empty());
}

TEST(PlanSync, OutOfSyncPodIsRemovedAndStillClassified) {
  Job job = make_job();
  job.spec.tasks = {make_task("a", 2)};
  SyncPlan plan =
      plan_sync(job, {PodBuilder(job, "a", 0, "Failed").annotate(keys::kOutOfSync, "true"),
                      PodBuilder(job, "a", 1, "Running")});
  EXPECT_EQ(names(plan.remove), (std::vector<std::string>{"job1-a-0"}));
  EXPECT_EQ(plan.status.failed, 1);
  EXPECT_EQ(plan.status.running, 1);
  EXPECT_EQ(plan.status.task_status_count.at("a").at("Failed"), 1);
}

TEST(PlanSync, OutOfSyncPodAlreadyTerminatingIsOnlyCountedAsTerminating) {
  Job job = make_job();
  job.spec.tasks = {make_task("a", 1)};
  SyncPlan plan = plan_sync(
      job, {PodBuilder(job, "a", 0, "Failed").annotate(keys::kOutOfSync, "true").deleting()});
  EXPECT_TRUE(plan.remove.empty());
  EXPECT_EQ(plan.status.terminating, 1);
  EXPECT_EQ(plan.status.failed, 0);
}

TEST(PlanSync, IndicesBeyondReplicasAndForeignNamesAreRemovedAndNotClassified) {
  Job job = make_job();
  job.spec.tasks = {make_task("a", 1)};
  SyncPlan plan =
      plan_sync(job, {PodBuilder(job, "a", 0, "Running"), PodBuilder(job, "a", 3, "Running"),
                      PodBuilder(job, "a", 1, "Succeeded"),
                      PodBuilder(job, "a", 0, "Pending").name("stray-pod")});
  EXPECT_EQ(names(plan.remove), (std::vector<std::string>{"job1-a-1", "job1-a-3", "stray-pod"}));
  EXPECT_EQ(plan.status.running, 1);
  EXPECT_EQ(plan.status.succeeded, 0);
  EXPECT_EQ(plan.status.pending, 0);
  EXPECT_EQ(plan.status.task_status_count.at("a"), (TaskPhaseCounts{{"Running", 1}}));
}

TEST(PlanSync, PodsOfTasksNotInTheSpecAreIgnored) {
  Job job = make_job();
  job.spec.tasks = {make_task("a", 1)};
  SyncPlan plan =
      plan_sync(job, {PodBuilder(job, "a", 0, "Running"), PodBuilder(job, "gone", 0, "Running"),
                      PodBuilder(job, "gone", 5, "Failed").deleting()});
  EXPECT_TRUE(plan.remove.empty());
  EXPECT_TRUE(plan.create.empty());
  EXPECT_EQ(plan.status.running, 1);
  EXPECT_EQ(plan.status.failed, 0);
  EXPECT_EQ(plan.status.terminating, 0);
  EXPECT_EQ(plan.status.task_status_count.count("gone"), 0u);
}

TEST(PlanSync, PodsTheControllerWouldNotCacheAreIgnored) {
  Job job = make_job();
  job.spec.tasks = {make_task("a", 1)};
  std::vector<views::PodViewPtr> cases;
  {
    PodBuilder b(job, "a", 0, "Running");
    b.pod->owner_references.clear();
    cases.push_back(b);
  }
  {
    PodBuilder b(job, "a", 0, "Running");
    b.pod->owner_references[0].kind = "ReplicaSet";
    cases.push_back(b);
  }
  {
    PodBuilder b(job, "a", 0, "Running");
    b.pod->owner_references[0].controller = false;
    cases.push_back(b);
  }
  cases.push_back(PodBuilder(job, "a", 0, "Running").annotate(keys::kJobVersion, "x1"));
  cases.push_back(PodBuilder(job, "a", 0, "Running").drop_annotation(keys::kJobVersion));
  cases.push_back(PodBuilder(job, "a", 0, "Running").drop_annotation(keys::kTaskSpec));
  cases.push_back(PodBuilder(job, "a", 0, "Running").annotate(keys::kJobName, "job2"));
  {
    PodBuilder b(job, "a", 0, "Running");
    b.pod->namespace_ = "other";
    cases.push_back(b);
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SyncPlan plan = plan_sync(job, {cases[i]});
    EXPECT_EQ(plan.create.size(), 1u) << "case " << i;
    EXPECT_EQ(plan.status.running, 0) << "case " << i;
  }
}

TEST(PlanSync, JobVersionAnnotationMustParseAsInt32LikeGo) {
  Job job = make_job();
  for (const char* ok : {"0", "+3", "-1", "2147483647", "-2147483648", "007"}) {
    EXPECT_TRUE(
        belongs_to_job(job, *PodBuilder(job, "a", 0).annotate(keys::kJobVersion, ok).build()))
        << ok;
  }
  for (const char* bad : {"", "+", "-", "2147483648", "-2147483649", "1.0", " 1", "1 ", "+-1",
                          "99999999999999999999999"}) {
    EXPECT_FALSE(
        belongs_to_job(job, *PodBuilder(job, "a", 0).annotate(keys::kJobVersion, bad).build()))
        << bad;
  }
}

TEST(PlanSync, PodOfAPreviousJobWithTheSameNameStillCounts) {
  Job job = make_job();
  job.spec.tasks = {make_task("a", 1)};
  PodBuilder old(job, "a", 0, "Running");
  old.pod->owner_references[0].uid = "uid-of-deleted-job";
  SyncPlan plan = plan_sync(job, {old});
  EXPECT_TRUE(plan.create.empty());
  EXPECT_EQ(plan.status.running, 1);
}

TEST(PlanSync, StatusCopiesStoredFieldsSetsMinAvailableAndClearsRunningDuration) {
  Job job = two_task_job();
  job.spec.min_available = 3;
  JobStatus& s = job.status;
  s.phase = phase::kRunning;
  s.reason = "r";
  s.message = "m";
  s.last_transition_time = api::TimePoint{} + std::chrono::seconds(100);
  s.min_available = 4;
  s.version = 2;
  s.retry_count = 1;
  s.running_duration = "5s";
  s.controlled_resources = {{"plugin-svc", "svc"}};
  s.conditions = {{phase::kPending, s.last_transition_time}};
  s.pending = 9;
  s.failed = 9;
  s.terminating = 9;
  s.unknown = 9;
  s.task_status_count = {{"ps", {{"Failed", 9}}}};

  SyncPlan plan = plan_sync(job, {});
  JobStatus expected = s;
  expected.min_available = 3;
  expected.running_duration.reset();
  expected.pending = expected.failed = expected.terminating = expected.unknown = 0;
  expected.task_status_count.clear();
  EXPECT_EQ(plan.status, expected);
}

TEST(PlanSync, DuplicateTaskNamePlansItsPodsOnce) {
  Job job = make_job();
  job.spec.tasks = {make_task("a", 1), make_task("a", 2)};
  SyncPlan plan = plan_sync(job, {PodBuilder(job, "a", 0, "Running")});
  EXPECT_TRUE(plan.create.empty());
  EXPECT_TRUE(plan.remove.empty());
  EXPECT_EQ(plan.status.running, 1);
}

TEST(PlanSync, NullPodPointersAreSkipped) {
  Job job = make_job();
  job.spec.tasks = {make_task("a", 1)};
  SyncPlan plan = plan_sync(job, {nullptr, PodBuilder(job, "a", 0, "Running")});
  EXPECT_EQ(plan.status.running, 1);
}

TEST(CountPod, IncrementsThePhaseCounterAndTheTaskBucket) {
  JobStatus s;
  count_pod(s, "t", "Running");
  count_pod(s, "t", "Running");
  count_pod(s, "u", "Evicted");
  count_pod(s, "u", "Succeeded");
  EXPECT_EQ(s.running, 2);
  EXPECT_EQ(s.unknown, 1);
  EXPECT_EQ(s.succeeded, 1);
  EXPECT_EQ(s.task_status_count.at("t"), (TaskPhaseCounts{{"Running", 2}}));
  EXPECT_EQ(s.task_status_count.at("u"), (TaskPhaseCounts{{"Succeeded", 1}, {"Unknown", 1}}));
}

TEST(JobPodName, IsJobDashTaskDashIndex) {
  EXPECT_EQ(job_pod_name("j", "worker", 12), "j-worker-12");
}

}  // namespace
}  // namespace vc::controllers::job
