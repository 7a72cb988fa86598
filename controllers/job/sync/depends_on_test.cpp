#include <gtest/gtest.h>

#include <map>
#include <string>

#include "controllers/job/sync/depends_on.h"
#include "controllers/job/sync/test_fixtures.h"

namespace vc::controllers::job {
namespace {

using sync_test::make_job;
using sync_test::make_task;
using sync_test::PodBuilder;

// A job with tasks a (2 replicas, minAvailable 2), b (1 replica, minAvailable 1) and c (dependent).
struct DependsOnTest : ::testing::Test {
  Job job = make_job();
  std::map<std::string, views::PodViewPtr> pods;

  DependsOnTest() {
    job.spec.tasks = {make_task("a", 2, 2), make_task("b", 1, 1), make_task("c", 1, 1)};
  }
  void add(views::PodViewPtr pod) { pods[pod->name] = std::move(pod); }
  bool ready(std::vector<std::string> names, std::string iteration = "") {
    TaskSpec& c = job.spec.tasks[2];
    c.depends_on = DependsOn{std::move(names), std::move(iteration)};
    return depends_on_ready(job, c, [this](const std::string& name) {
      auto it = pods.find(name);
      return it == pods.end() ? nullptr : it->second;
    });
  }
  void a_ready() {
    add(PodBuilder(job, "a", 0, "Succeeded"));
    add(PodBuilder(job, "a", 1, "Running").container(true));
  }
};

TEST_F(DependsOnTest, TaskWithoutDependsOnIsReady) {
  EXPECT_TRUE(depends_on_ready(job, job.spec.tasks[0],
                               [](const std::string&) -> views::PodViewPtr { return nullptr; }));
}

TEST_F(DependsOnTest, SucceededAndReadyRunningPodsCountTowardsMinAvailable) {
  a_ready();
  EXPECT_TRUE(ready({"a"}));
}

TEST_F(DependsOnTest, MissingPodsAreNotCounted) {
  add(PodBuilder(job, "a", 0, "Succeeded"));
  EXPECT_FALSE(ready({"a"}));
}

TEST_F(DependsOnTest, RunningPodWithAnUnreadyContainerIsNotCounted) {
  add(PodBuilder(job, "a", 0, "Succeeded"));
  add(PodBuilder(job, "a", 1, "Running").container(true).container(false));
  EXPECT_FALSE(ready({"a"}));
}

TEST_F(DependsOnTest, InitContainerReadinessDoesNotMatterAndNoStatusesMeansReady) {
  add(PodBuilder(job, "a", 0, "Running").container(false, /*init=*/true).container(true));
  add(PodBuilder(job, "a", 1, "Running"));
  EXPECT_TRUE(ready({"a"}));
}

TEST_F(DependsOnTest, PendingAndFailedPodsAreNotCounted) {
  add(PodBuilder(job, "a", 0, "Pending"));
  add(PodBuilder(job, "a", 1, "Failed"));
  EXPECT_FALSE(ready({"a"}));
}

TEST_F(DependsOnTest, PodsBeyondReplicasAreNotConsulted) {
  add(PodBuilder(job, "a", 0, "Succeeded"));
  add(PodBuilder(job, "a", 2, "Succeeded"));
  EXPECT_FALSE(ready({"a"}));
}

TEST_F(DependsOnTest, DependencyWithoutMinAvailableIsReady) {
  job.spec.tasks[0].min_available.reset();
  EXPECT_TRUE(ready({"a"}));
}

TEST_F(DependsOnTest, DependencyOnAnUnknownTaskIsReady) {
  EXPECT_TRUE(ready({"nope"}));
}

TEST_F(DependsOnTest, AllIterationNeedsEveryDependency) {
  a_ready();
  EXPECT_FALSE(ready({"a", "b"}, "all"));
  EXPECT_FALSE(ready({"a", "b"}));
  add(PodBuilder(job, "b", 0, "Succeeded"));
  EXPECT_TRUE(ready({"a", "b"}, "all"));
}

TEST_F(DependsOnTest, AnyIterationNeedsOneDependency) {
  EXPECT_FALSE(ready({"a", "b"}, "any"));
  add(PodBuilder(job, "b", 0, "Succeeded"));
  EXPECT_TRUE(ready({"a", "b"}, "any"));
}

TEST_F(DependsOnTest, AnyWithASingleDependencyBehavesAsAll) {
  add(PodBuilder(job, "b", 0, "Succeeded"));
  EXPECT_FALSE(ready({"a"}, "any"));
  EXPECT_TRUE(ready({"b"}, "any"));
}

TEST_F(DependsOnTest, EmptyDependencyListIsReady) {
  EXPECT_TRUE(ready({}, "all"));
}

// U5: the pod lookup is the job's pods as job_pods() gathers them, where a pod we killed carries a
// deletionTimestamp; Volcano would count a terminating, ready pod (the assertion that fails
// without the fix).
TEST_F(DependsOnTest, TerminatingPodsAreNotCounted) {
  add(PodBuilder(job, "a", 0, "Succeeded").deleting());
  add(PodBuilder(job, "a", 1, "Running").container(true));
  EXPECT_FALSE(ready({"a"}));
  add(PodBuilder(job, "a", 0, "Succeeded"));
  EXPECT_TRUE(ready({"a"}));
}

// U5: a running pod of the version before a full kill is being killed; a succeeded one was
// retained by a Soft kill and is adopted, so it still counts.
TEST_F(DependsOnTest, RunningPodsOfAnOlderJobVersionAreNotCountedButSucceededOnesAre) {
  job.status.version = 2;  // PodBuilder's pods carry version 0
  add(PodBuilder(job, "a", 0, "Succeeded"));
  add(PodBuilder(job, "a", 1, "Running").container(true));
  EXPECT_FALSE(ready({"a"}));
  add(PodBuilder(job, "a", 1, "Running").container(true).annotate(keys::kJobVersion, "2"));
  EXPECT_TRUE(ready({"a"}));
}

}  // namespace
}  // namespace vc::controllers::job
