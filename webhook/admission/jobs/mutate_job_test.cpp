#include "webhook/admission/jobs/mutate_job.h"

#include <gtest/gtest.h>

#include "webhook/admission/jobs/test_support.h"

namespace vc::webhook::jobs {
namespace {

using testing::request;

AdmissionResponse mutate(json object, const AdmissionOptions& options = {},
                         const std::string& operation = "CREATE") {
  StaticClusterView view;
  return admit_jobs_mutate(request(kJobsResource, operation, std::move(object)), view, options);
}

json op(const char* verb, const char* path, json value) {
  return {{"op", verb}, {"path", path}, {"value", std::move(value)}};
}

TEST(JobsMutate, WorkedExampleOfTheSpec) {
  const json pod = {{"spec", {{"containers", json::array({testing::container("c", "busybox")})}}}};
  json job = {{"metadata", {{"name", "j"}}},
              {"spec", {{"tasks", json::array({{{"replicas", 2}, {"template", pod}}})}}}};
  auto r = mutate(job);
  ASSERT_TRUE(r.allowed);
  // Volcano re-serialises the template through Go types (adding "metadata":{} and
  // "resources":{}); we keep the template as given, which is the same object semantically.
  const json expected =
      json::array({op("add", "/spec/queue", "default"), op("add", "/spec/schedulerName", "volcano"),
                   op("add", "/spec/maxRetry", 3),
                   op("replace", "/spec/tasks",
                      json::array({{{"name", "default0"},
                                    {"replicas", 2},
                                    {"minAvailable", 2},
                                    {"template", pod},
                                    {"maxRetry", 3}}})),
                   op("add", "/spec/minAvailable", 2)});
  EXPECT_EQ(r.patch, expected);
}

TEST(JobsMutate, CompleteJobGetsNoPatch) {
  json job = testing::valid_job();
  job["spec"]["tasks"][0]["minAvailable"] = 1;
  job["spec"]["tasks"][0]["maxRetry"] = 5;
  auto r = mutate(job);
  EXPECT_TRUE(r.allowed);
  EXPECT_TRUE(r.patch.empty());
}

TEST(JobsMutate, ExplicitZerosAreReplacedByDefaults) {
  json job = testing::valid_job();
  job["spec"]["maxRetry"] = 0;
  job["spec"]["minAvailable"] = 0;
  job["spec"]["queue"] = "";
  job["spec"]["tasks"][0]["minAvailable"] = 1;
  job["spec"]["tasks"][0]["maxRetry"] = 0;
  auto r = mutate(job);
  json tasks = job["spec"]["tasks"];
  tasks[0]["maxRetry"] = 3;
  EXPECT_EQ(r.patch,
            json::array({op("add", "/spec/queue", "default"), op("add", "/spec/maxRetry", 3),
                         op("replace", "/spec/tasks", tasks), op("add", "/spec/minAvailable", 1)}));
}

TEST(JobsMutate, SchedulerNameComesFromTheFirstFlagValue) {
  json job = testing::valid_job();
  job["spec"].erase("schedulerName");
  job["spec"]["tasks"][0]["minAvailable"] = 1;
  job["spec"]["tasks"][0]["maxRetry"] = 3;
  AdmissionOptions options;
  options.scheduler_names = {"kube-batch", "volcano"};
  EXPECT_EQ(mutate(job, options).patch,
            json::array({op("add", "/spec/schedulerName", "kube-batch")}));
  options.scheduler_names.clear();
  EXPECT_EQ(mutate(job, options).patch, json::array({op("add", "/spec/schedulerName", "volcano")}));
}

TEST(JobsMutate, HostNetworkTasksGetClusterFirstWithHostNet) {
  json job = testing::valid_job();
  job["spec"]["tasks"][0]["minAvailable"] = 1;
  job["spec"]["tasks"][0]["maxRetry"] = 3;
  job["spec"]["tasks"][0]["template"]["spec"]["hostNetwork"] = true;
  auto r = mutate(job);
  ASSERT_EQ(r.patch.size(), 1u);
  EXPECT_EQ(r.patch[0]["path"], "/spec/tasks");
  EXPECT_EQ(r.patch[0]["value"][0]["template"]["spec"]["dnsPolicy"], "ClusterFirstWithHostNet");
  job["spec"]["tasks"][0]["template"]["spec"]["dnsPolicy"] = "Default";
  EXPECT_TRUE(mutate(job).patch.empty());
}

TEST(JobsMutate, TaskMinAvailableFromPartitionsOrReplicas) {
  json job = testing::valid_job();
  job["spec"].erase("minAvailable");
  job["spec"]["tasks"] = json::array({testing::task("a", 6), testing::task("b", 4)});
  job["spec"]["tasks"][0]["partitionPolicy"] = {
      {"totalPartitions", 3}, {"partitionSize", 2}, {"minPartitions", 2}};
  job["spec"]["tasks"][1]["partitionPolicy"] = {{"totalPartitions", 2}, {"partitionSize", 2}};
  auto r = mutate(job);
  ASSERT_EQ(r.patch.size(), 2u);
  EXPECT_EQ(r.patch[0]["value"][0]["minAvailable"], 4);
  EXPECT_EQ(r.patch[0]["value"][1]["minAvailable"], 4);
  EXPECT_EQ(r.patch[1], op("add", "/spec/minAvailable", 8));
}

TEST(JobsMutate, PartitionProductWrapsLikeInt32) {
  json job = testing::valid_job();
  job["spec"]["tasks"][0]["partitionPolicy"] = {
      {"totalPartitions", 1}, {"partitionSize", 65536}, {"minPartitions", 65537}};
  job["spec"]["tasks"][0]["maxRetry"] = 3;
  auto r = mutate(job);
  ASSERT_EQ(r.patch.size(), 1u);
  EXPECT_EQ(r.patch[0]["value"][0]["minAvailable"], 65536);  // 65537*65536 mod 2^32
}

TEST(JobsMutate, NullTaskBecomesADefaultedTask) {
  json job = testing::valid_job();
  job["spec"]["tasks"] = json::array({nullptr});
  job["spec"].erase("minAvailable");
  auto r = mutate(job);
  EXPECT_EQ(
      r.patch,
      json::array({op("replace", "/spec/tasks",
                      json::array({{{"name", "default0"}, {"minAvailable", 0}, {"maxRetry", 3}}})),
                   op("add", "/spec/minAvailable", 0)}));
}

TEST(JobsMutate, NoTasksStillDefaultsMinAvailableToZero) {
  json job = {{"spec", {{"queue", "q"}, {"schedulerName", "s"}, {"maxRetry", 1}}}};
  EXPECT_EQ(mutate(job).patch, json::array({op("add", "/spec/minAvailable", 0)}));
}

TEST(JobsMutate, PluginsAreAlwaysReplacedWithImpliedOnes) {
  json job = testing::valid_job();
  job["spec"]["tasks"][0]["minAvailable"] = 1;
  job["spec"]["tasks"][0]["maxRetry"] = 3;
  job["spec"]["plugins"] = json::object();
  EXPECT_EQ(mutate(job).patch, json::array({op("replace", "/spec/plugins", json::object())}));

  job["spec"]["plugins"] = {{"mpi", json::array({"--master=m"})}, {"env", nullptr}};
  EXPECT_EQ(mutate(job).patch, json::array({op("replace", "/spec/plugins",
                                               {{"mpi", json::array({"--master=m"})},
                                                {"env", nullptr},
                                                {"svc", json::array()},
                                                {"ssh", json::array()}})}));

  for (const char* p : {"tensorflow", "pytorch", "ray"}) {
    job["spec"]["plugins"] = {{p, json::array()}, {"svc", json::array({"--x"})}};
    EXPECT_EQ(mutate(job).patch[0]["value"]["svc"], json::array({"--x"})) << p;
    job["spec"]["plugins"] = {{p, json::array()}};
    EXPECT_EQ(mutate(job).patch[0]["value"]["svc"], json::array()) << p;
    EXPECT_FALSE(mutate(job).patch[0]["value"].contains("ssh")) << p;
  }
  job["spec"]["plugins"] = {{"hcclrank", json::array()}};
  EXPECT_EQ(mutate(job).patch[0]["value"], (json{{"hcclrank", json::array()}}));
}

TEST(JobsMutate, OnlyCreateIsHandled) {
  auto r = mutate(testing::valid_job(), {}, "UPDATE");
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message, "expect operation to be 'CREATE' ");
}

TEST(JobsMutate, ResourceAndDecodeErrorsComeFirst) {
  StaticClusterView view;
  auto wrong =
      request({"batch.volcano.sh", "v1alpha1", "cronjobs"}, "CREATE", testing::valid_job());
  auto r = admit_jobs_mutate(wrong, view, {});
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message, "expect resource to be {batch.volcano.sh v1alpha1 jobs}");

  json job = testing::valid_job();
  job["spec"]["maxRetry"] = "3";
  r = mutate(job, {}, "DELETE");
  EXPECT_EQ(
      r.message,
      "json: cannot unmarshal string into Go struct field JobSpec.spec.maxRetry of type int32");
}

}  // namespace
}  // namespace vc::webhook::jobs
