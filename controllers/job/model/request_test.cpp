#include "controllers/job/model/request.h"

#include <stdexcept>
#include <unordered_set>

#include <gtest/gtest.h>

#include "controllers/job/model/job.h"

namespace vc::controllers::job {
namespace {

// Reference values from Go's hash/fnv New32 (FNV-1).
TEST(Fnv1_32, MatchesGoHashFnvNew32) {
  EXPECT_EQ(fnv1_32(""), 0x811c9dc5u);
  EXPECT_EQ(fnv1_32("a"), 0x050c5d7eu);
  EXPECT_EQ(fnv1_32("foobar"), 0x31f0b262u);
  EXPECT_EQ(fnv1_32("default/job1"), 0xdb71798du);
}

TEST(Fnv1_32, IsNotFnv1a) {
  // FNV-1a of "a" is 0xe40c292c; sharding with it would disagree with Volcano's.
  EXPECT_NE(fnv1_32("a"), 0xe40c292cu);
}

TEST(ShardOf, IsHashModuloWorkers) {
  EXPECT_EQ(shard_of("default/job1", 3), 0xdb71798du % 3);
  EXPECT_EQ(shard_of("default/job1", 1), 0u);
}

TEST(ShardOf, ZeroWorkersIsAProgrammerError) {
  EXPECT_THROW((void)shard_of("default/job1", 0), std::invalid_argument);
}

TEST(Request, JobKeyIsNamespaceSlashName) {
  Request r;
  r.namespace_ = "ns";
  r.job_name = "job1";
  EXPECT_EQ(r.job_key(), "ns/job1");
}

TEST(Request, IdenticalRequestsDeduplicateAndAnyFieldDistinguishes) {
  Request base;
  base.namespace_ = "ns";
  base.job_name = "job1";
  base.event = event::kPodFailed;
  std::unordered_set<Request, RequestHash> set;
  set.insert(base);
  set.insert(base);
  EXPECT_EQ(set.size(), 1u);

  Request other = base;
  other.exit_code = 1;
  set.insert(other);
  other = base;
  other.job_version = 2;
  set.insert(other);
  other = base;
  other.pod_name = "job1-worker-0";
  set.insert(other);
  other = base;
  other.action = action::kAbortJob;
  set.insert(other);
  EXPECT_EQ(set.size(), 5u);
  EXPECT_EQ(RequestHash{}(base), RequestHash{}(Request(base)));
}

TEST(JobSpec, TotalReplicasSumsTasksAndTaskFindsFirstByName) {
  JobSpec spec;
  spec.tasks.resize(3);
  spec.tasks[0].name = "ps";
  spec.tasks[0].replicas = 1;
  spec.tasks[1].name = "worker";
  spec.tasks[1].replicas = 4;
  spec.tasks[2].name = "worker";
  spec.tasks[2].replicas = 2;
  EXPECT_EQ(spec.total_replicas(), 7);
  ASSERT_NE(spec.task("worker"), nullptr);
  EXPECT_EQ(spec.task("worker")->replicas, 4);
  EXPECT_EQ(spec.task("chief"), nullptr);
}

TEST(Job, AnnotationLooksUpSortedAnnotations) {
  Job job;
  job.annotations = {{"a", "1"}, {"volcano.sh/preemptable", "true"}, {"z", "2"}};
  ASSERT_NE(job.annotation("volcano.sh/preemptable"), nullptr);
  EXPECT_EQ(*job.annotation("volcano.sh/preemptable"), "true");
  EXPECT_EQ(job.annotation("b"), nullptr);
  EXPECT_EQ(job.annotation("zz"), nullptr);
}

TEST(TaskSpec, TemplateJsonIsTheInternedDocument) {
  TaskSpec task;
  EXPECT_EQ(task.template_json(), nlohmann::json::object());
  task.pod_template = PodTemplate::from_json(nlohmann::json::parse(R"({"spec":{"hostname":"h"}})"));
  EXPECT_EQ(task.template_json()["spec"]["hostname"], "h");
}

}  // namespace
}  // namespace vc::controllers::job
