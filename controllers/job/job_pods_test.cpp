// job_pods(): the job's pods on a cache that lags our own creates and deletes, and what the pure
// planners decide from them (the syncer hands job_pods' result to each of them).

#include "controllers/job/job_pods.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "controllers/job/state/pod_events.h"
#include "controllers/job/sync/depends_on.h"
#include "controllers/job/sync/plan.h"
#include "controllers/job/sync/test_fixtures.h"

namespace vc::controllers::job {
namespace {

using sync_test::make_job;
using sync_test::make_task;
using sync_test::names;
using sync_test::PodBuilder;

// A job of task a (3 replicas) and the pod cache the syncer reads.
struct JobPodsTest : ::testing::Test {
  Job job = make_job();
  kube::cache::Store store;
  PendingWrites pending;
  const api::TimePoint now = api::TimePoint{} + std::chrono::hours(24 * 365 * 56);

  JobPodsTest() {
    store.add_indexer(kJobPodsIndex, job_pods_index);
    job.spec.tasks = {make_task("a", 3)};
    job.spec.min_available = 3;
    job.status.phase = phase::kPending;
  }
  void cache(views::PodViewPtr pod) { store.upsert(std::move(pod)); }
  // A pod we created: the syncer records the pod it sent with the reply's UID.
  void created(views::PodViewPtr pod) { pending.pods_created.record(job.key(), std::move(pod)); }
  std::vector<views::PodViewPtr> pods() {
    auto out = job_pods(store, job.key(), pending, now);
    std::sort(out.begin(), out.end(),
              [](const auto& x, const auto& y) { return x->name < y->name; });
    return out;
  }
  views::PodViewPtr find(const std::vector<views::PodViewPtr>& list, const std::string& name) {
    for (const auto& p : list) {
      if (p->name == name) return p;
    }
    return nullptr;
  }
  // The three pods of task a were created; the informer has shown only the first.
  void created_three_cached_one() {
    for (int i = 0; i < 3; ++i) created(PodBuilder(job, "a", i));
    cache(PodBuilder(job, "a", 0));
    job.status.pending = 3;
  }
};

TEST_F(JobPodsTest, PodsWeCreatedThatTheCacheLacksAreAddedUntilItShowsThem) {
  created_three_cached_one();
  const auto got = pods();
  ASSERT_EQ(names(got), (std::vector<std::string>{"job1-a-0", "job1-a-1", "job1-a-2"}));
  EXPECT_EQ(got[1]->phase, "Pending");
  EXPECT_FALSE(got[1]->deletion_timestamp);
  EXPECT_EQ(pending.pods_created.size(), 2u) << "the cached pod's record is forgotten";
  cache(PodBuilder(job, "a", 1));
  cache(PodBuilder(job, "a", 2));
  EXPECT_EQ(names(pods()), (std::vector<std::string>{"job1-a-0", "job1-a-1", "job1-a-2"}));
  EXPECT_TRUE(pending.pods_created.empty());
}

// U1: without the stand-ins the plan would create job1-a-1 and job1-a-2 again and count 1 pending.
TEST_F(JobPodsTest, SyncOnACacheLackingTheLastCreatedPodsCreatesNothingAndCountsThemAll) {
  created_three_cached_one();
  SyncPlan plan = plan_sync(job, pods());
  EXPECT_TRUE(plan.create.empty());
  EXPECT_TRUE(plan.remove.empty());
  EXPECT_EQ(plan.status.pending, 3);
}

// U2: without the stand-ins a RestartJob/Abort would leave job1-a-1 and job1-a-2 alive.
TEST_F(JobPodsTest, KillOnACacheLackingTheLastCreatedPodsKillsThemToo) {
  created_three_cached_one();
  KillPlan plan = plan_kill_job(job, pods(), /*retain_finished=*/false);
  EXPECT_EQ(names(plan.kill), (std::vector<std::string>{"job1-a-0", "job1-a-1", "job1-a-2"}));
  KillTarget task{.task = "a", .pod = {}, .partition = {}, .kind = KillTarget::Kind::Task};
  EXPECT_EQ(names(plan_kill_target(job, pods(), task).kill),
            (std::vector<std::string>{"job1-a-0", "job1-a-1", "job1-a-2"}));
}

TEST_F(JobPodsTest, CreatedPodWeDeletedSinceIsTerminatingNotMissing) {
  created_three_cached_one();
  pending.deleted.record(PodBuilder(job, "a", 2).build()->uid);
  const auto got = pods();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[2]->deletion_timestamp, now);
  SyncPlan plan = plan_sync(job, got);
  EXPECT_TRUE(plan.create.empty()) << "a pod being deleted is not created again";
  EXPECT_EQ(plan.status.terminating, 1);
  EXPECT_EQ(plan.status.pending, 2);
  job.status.phase = phase::kAborting;
  KillPlan kill = plan_kill_job(job, got, /*retain_finished=*/true);
  EXPECT_EQ(kill.status.terminating, 1) << "the Aborted drain rule must wait for it";
}

TEST_F(JobPodsTest, CachedPodOfTheSameNameWinsOverTheStandIn) {
  created(PodBuilder(job, "a", 1));
  auto newer = std::make_shared<views::PodView>(*PodBuilder(job, "a", 1, "Running").build());
  newer->uid = "someone-elses";
  cache(newer);
  const auto got = pods();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]->uid, "someone-elses");
  EXPECT_TRUE(pending.pods_created.empty());
}

TEST_F(JobPodsTest, CachedPodWeDeletedIsTerminatingUntilTheCacheShowsIt) {
  cache(PodBuilder(job, "a", 0, "Running"));
  pending.deleted.record(PodBuilder(job, "a", 0).build()->uid);
  EXPECT_EQ(pods()[0]->deletion_timestamp, now);
  cache(PodBuilder(job, "a", 0, "Running").deleting());
  EXPECT_NE(pods()[0]->deletion_timestamp, now) << "the cache's own deletionTimestamp";
  EXPECT_TRUE(pending.deleted.empty()) << "the cache has caught up";
}

// U5: without the fix the dependency pod we have just killed, still cached as ready, would open
// task b's gate (Volcano reads the pod cache by name).
TEST_F(JobPodsTest, DependencyPodWeKilledIsNotReady) {
  job.spec.tasks = {make_task("a", 1, 1), make_task("b", 1)};
  job.spec.tasks[1].depends_on = DependsOn{{"a"}, ""};
  cache(PodBuilder(job, "a", 0, "Running").container(true));
  auto lookup = [&](const std::vector<views::PodViewPtr>& list) {
    return [this, list](const std::string& name) { return find(list, name); };
  };
  EXPECT_TRUE(depends_on_ready(job, job.spec.tasks[1], lookup(pods())));
  pending.deleted.record(PodBuilder(job, "a", 0).build()->uid);
  EXPECT_FALSE(depends_on_ready(job, job.spec.tasks[1], lookup(pods())));
}

// U6: without the fix a-0, killed by us but still cached as Succeeded, would complete task a
// when a-1 succeeds, and its restarts would fail the task again.
TEST_F(JobPodsTest, PodWeKilledCountsTowardsNoTaskVerdict) {
  job.spec.tasks = {make_task("a", 2)};
  views::PodViewPtr a0 = PodBuilder(job, "a", 0, "Succeeded");
  views::PodViewPtr a1_before = PodBuilder(job, "a", 1, "Running");
  views::PodViewPtr a1 = PodBuilder(job, "a", 1, "Succeeded");
  cache(a0);
  cache(a1);
  EXPECT_EQ(classify_pod_update(*a1_before, *a1, &job, pods()).event, event::kTaskCompleted);
  pending.deleted.record(a0->uid);
  EXPECT_EQ(classify_pod_update(*a1_before, *a1, &job, pods()).event, event::kOutOfSync);

  auto restarted = std::make_shared<views::PodView>(*PodBuilder(job, "a", 0, "Running").build());
  views::ContainerStatusView restarts;
  restarts.restart_count = 3;
  restarted->container_statuses.push_back(restarts);
  cache(restarted);
  views::PodViewPtr a1_running = PodBuilder(job, "a", 1, "Running");
  cache(a1_running);
  EXPECT_EQ(classify_pod_update(*a1_running, *a1_running, &job, pods()).event, event::kOutOfSync)
      << "the killed pod's restarts must not fire TaskFailed";
}

}  // namespace
}  // namespace vc::controllers::job
