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

// A running job with retries left: maxRetry 3, retryCount 0, version 4.
Job running_job() {
  Job job = make_job();
  job.spec.tasks = {make_task("a", 4), make_task("b", 1)};
  job.spec.max_retry = 3;
  job.status.phase = phase::kRunning;
  job.status.version = 4;
  job.status.running = 3;
  job.status.succeeded = 1;
  job.status.task_status_count = {{"a", {{"Running", 3}, {"Succeeded", 1}}}};
  job.status.conditions = {{phase::kRunning, api::TimePoint{} + std::chrono::seconds(5)}};
  job.status.controlled_resources = {{"plugin-env", "env"}};
  return job;
}

std::vector<views::PodViewPtr> mixed_pods(const Job& job) {
  return {PodBuilder(job, "a", 0, "Running"), PodBuilder(job, "a", 1, "Succeeded"),
          PodBuilder(job, "a", 2, "Failed"), PodBuilder(job, "a", 3, "Running").deleting(),
          PodBuilder(job, "b", 0, "Pending")};
}

TEST(PlanKillJob, WithoutRetainKillsEveryPodNotAlreadyTerminating) {
  Job job = running_job();
  KillPlan plan = plan_kill_job(job, mixed_pods(job), /*retain_finished=*/false);
  EXPECT_FALSE(plan.noop);
  EXPECT_EQ(names(plan.kill),
            (std::vector<std::string>{"job1-a-0", "job1-a-1", "job1-a-2", "job1-b-0"}));
  EXPECT_EQ(plan.status.terminating, 1);
  EXPECT_EQ(plan.status.running, 0);
  EXPECT_EQ(plan.status.succeeded, 0);
  EXPECT_EQ(plan.status.failed, 0);
  EXPECT_EQ(plan.status.pending, 0);
  EXPECT_TRUE(plan.status.task_status_count.empty());
}

TEST(PlanKillJob, BumpsTheVersionAndKeepsOtherStoredFields) {
  Job job = running_job();
  job.status.running_duration = "3s";
  KillPlan plan = plan_kill_job(job, {}, false);
  EXPECT_EQ(plan.status.version, 5);
  EXPECT_EQ(job.status.version, 4) << "the cached job is not modified";
  EXPECT_EQ(plan.status.phase, phase::kRunning);
  EXPECT_EQ(plan.status.conditions, job.status.conditions);
  EXPECT_EQ(plan.status.controlled_resources, job.status.controlled_resources);
  EXPECT_EQ(plan.status.running_duration, "3s");
  EXPECT_EQ(plan.status.retry_count, 0);
}

TEST(PlanKillJob, SoftRetainKeepsFinishedPodsAndCountsThem) {
  Job job = running_job();
  KillPlan plan = plan_kill_job(job, mixed_pods(job), /*retain_finished=*/true);
  EXPECT_EQ(names(plan.kill), (std::vector<std::string>{"job1-a-0", "job1-b-0"}));
  // Volcano zeroes these (volcano-sh/volcano#4616); we keep them so a finished job's counts survive
  // its cleanup.
  EXPECT_EQ(plan.status.succeeded, 1);
  EXPECT_EQ(plan.status.failed, 1);
  EXPECT_EQ(plan.status.terminating, 1);
  EXPECT_EQ(plan.status.task_status_count.at("a"),
            (TaskPhaseCounts{{"Failed", 1}, {"Succeeded", 1}}));
}

TEST(PlanKillJob, LastRetryForcesSoftRetain) {
  Job job = running_job();
  job.status.retry_count = 2;  // >= maxRetry - 1
  KillPlan plan = plan_kill_job(job, mixed_pods(job), /*retain_finished=*/false);
  EXPECT_EQ(names(plan.kill), (std::vector<std::string>{"job1-a-0", "job1-b-0"}));
  EXPECT_EQ(plan.status.succeeded, 1);
  EXPECT_EQ(plan.status.failed, 1);
}

TEST(PlanKillJob, RetriesLeftDoNotForceRetain) {
  Job job = running_job();
  job.status.retry_count = 1;  // < maxRetry - 1
  KillPlan plan = plan_kill_job(job, mixed_pods(job), false);
  EXPECT_EQ(plan.kill.size(), 4u);
}

TEST(PlanKillJob, ZeroMaxRetryMeansEveryKillIsTheLastRetry) {
  Job job = running_job();
  job.spec.max_retry = 0;
  KillPlan plan = plan_kill_job(job, mixed_pods(job), false);
  EXPECT_EQ(plan.kill.size(), 2u);
}

TEST(PlanKillJob, KillsPodsOfTasksNoLongerInTheSpec) {
  Job job = running_job();
  KillPlan plan = plan_kill_job(job, {PodBuilder(job, "gone", 0, "Running")}, true);
  EXPECT_EQ(names(plan.kill), (std::vector<std::string>{"job1-gone-0"}));
}

TEST(PlanKillJob, IgnoresPodsThatDoNotBelongToTheJob) {
  Job job = running_job();
  PodBuilder foreign(job, "a", 0, "Running");
  foreign.pod->owner_references.clear();
  KillPlan plan = plan_kill_job(job, {foreign, nullptr}, false);
  EXPECT_TRUE(plan.kill.empty());
}

TEST(PlanKillJob, JobBeingDeletedIsANoop) {
  Job job = running_job();
  job.deletion_timestamp = api::TimePoint{} + std::chrono::seconds(1);
  KillPlan plan = plan_kill_job(job, mixed_pods(job), false);
  EXPECT_TRUE(plan.noop);
  EXPECT_TRUE(plan.kill.empty());
  EXPECT_EQ(plan.status, job.status);
}

TEST(PlanKillTarget, TaskTargetSelectsEveryPodOfTheTaskIncludingTerminatingOnes) {
  Job job = running_job();
  KillPlan plan = plan_kill_target(job, mixed_pods(job), {"a", "", "", KillTarget::Kind::Task});
  EXPECT_FALSE(plan.noop);
  EXPECT_EQ(names(plan.kill),
            (std::vector<std::string>{"job1-a-0", "job1-a-1", "job1-a-2", "job1-a-3"}));
  EXPECT_EQ(plan.status.version, 4) << "target kills do not bump the version";
  EXPECT_EQ(plan.status.running, 0);
  EXPECT_EQ(plan.status.succeeded, 0);
  EXPECT_EQ(plan.status.terminating, 0);
  EXPECT_TRUE(plan.status.task_status_count.empty());
  EXPECT_EQ(plan.status.conditions, job.status.conditions);
}

TEST(PlanKillTarget, PodTargetSelectsThatPodOfThatTaskOnly) {
  Job job = running_job();
  KillPlan plan =
      plan_kill_target(job, mixed_pods(job), {"a", "job1-a-2", "", KillTarget::Kind::Pod});
  EXPECT_EQ(names(plan.kill), (std::vector<std::string>{"job1-a-2"}));
  KillPlan wrong_task =
      plan_kill_target(job, mixed_pods(job), {"b", "job1-a-2", "", KillTarget::Kind::Pod});
  EXPECT_TRUE(wrong_task.kill.empty());
  EXPECT_FALSE(wrong_task.noop);
}

TEST(PlanKillTarget, EmptyTaskFromACommandSelectsNothingButIsNotANoop) {
  Job job = running_job();
  for (auto kind : {KillTarget::Kind::Task, KillTarget::Kind::Pod}) {
    KillPlan plan = plan_kill_target(job, mixed_pods(job), {"", "", "", kind});
    EXPECT_TRUE(plan.kill.empty());
    EXPECT_FALSE(plan.noop) << "the job still moves to Restarting";
  }
}

TEST(PlanKillTarget, PartitionTargetSelectsPodsWithThatPartitionLabel) {
  Job job = running_job();
  std::vector<views::PodViewPtr> pods = {
      PodBuilder(job, "a", 0, "Running").label(keys::kPartitionId, "0"),
      PodBuilder(job, "a", 1, "Running").label(keys::kPartitionId, "0").deleting(),
      PodBuilder(job, "a", 2, "Running").label(keys::kPartitionId, "1"),
      PodBuilder(job, "b", 0, "Running").label(keys::kPartitionId, "0")};
  KillPlan plan = plan_kill_target(job, pods, {"a", "", "0", KillTarget::Kind::Partition});
  EXPECT_FALSE(plan.noop);
  EXPECT_EQ(names(plan.kill), (std::vector<std::string>{"job1-a-0", "job1-a-1"}));
}

TEST(PlanKillTarget, PartitionWithoutPodsIsANoop) {
  Job job = running_job();
  std::vector<views::PodViewPtr> pods = {
      PodBuilder(job, "a", 0, "Running").label(keys::kPartitionId, "0"),
      PodBuilder(job, "b", 0, "Running")};
  for (const KillTarget& t : {KillTarget{"a", "", "7", KillTarget::Kind::Partition},
                              KillTarget{"b", "", "0", KillTarget::Kind::Partition},
                              KillTarget{"", "", "", KillTarget::Kind::Partition}}) {
    KillPlan plan = plan_kill_target(job, pods, t);
    EXPECT_TRUE(plan.noop) << t.task << "/" << t.partition;
    EXPECT_TRUE(plan.kill.empty());
  }
}

TEST(PlanKillTarget, JobBeingDeletedIsANoop) {
  Job job = running_job();
  job.deletion_timestamp = api::TimePoint{} + std::chrono::seconds(1);
  KillPlan plan = plan_kill_target(job, mixed_pods(job), {"a", "", "", KillTarget::Kind::Task});
  EXPECT_TRUE(plan.noop);
  EXPECT_TRUE(plan.kill.empty());
}

}  // namespace
}  // namespace vc::controllers::job
