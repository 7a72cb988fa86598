#include <gtest/gtest.h>

#include "webhook/admission/jobs/test_support.h"

namespace vc::webhook::jobs {
namespace {

using testing::task;
using testing::valid_job;

const std::string kSuffix =
    " valid events are [* JobUpdated PodEvicted PodFailed PodPending TaskCompleted TaskFailed "
    "Unknown], valid actions are [AbortJob CompleteJob RestartJob RestartPartition RestartPod "
    "RestartTask ResumeJob TerminateJob];";

AdmissionResponse create(json job, const ClusterView& view) {
  return admit_jobs_validate(testing::request(kJobsResource, "CREATE", std::move(job)), view, {});
}

AdmissionResponse create(json job) {
  return create(std::move(job), testing::open_cluster());
}

std::string denial(json job) {
  auto r = create(std::move(job));
  EXPECT_FALSE(r.allowed);
  return r.message;
}

TEST(JobsValidateCreate, ValidJobIsAllowed) {
  auto r = create(valid_job());
  EXPECT_TRUE(r.allowed) << r.message;
  EXPECT_TRUE(r.warnings.empty());
}

TEST(JobsValidateCreate, NoTasks) {
  json job = valid_job();
  job["spec"]["tasks"] = json::array();
  EXPECT_EQ(denial(job), "No task specified in job spec");
}

TEST(JobsValidateCreate, MpiMasterMustNameATask) {
  json job = valid_job();
  job["spec"]["plugins"] = {{"mpi", json::array({"--master=head"})}};
  EXPECT_EQ(denial(job), "The specified mpi master task was not found");
  job["spec"]["plugins"]["mpi"] = json::array({"-master", "worker", "--port=0x16"});
  EXPECT_TRUE(create(job).allowed);
  // "master=x" is not a flag: parsing stops and the default "master" is looked for.
  job["spec"]["plugins"]["mpi"] = json::array({"master=worker"});
  EXPECT_EQ(denial(job), "The specified mpi master task was not found");
}

TEST(JobsValidateCreate, JobNetworkTopologyConflict) {
  json job = valid_job();
  job["spec"]["networkTopology"] = {{"highestTierAllowed", 1}, {"highestTierName", "t"}};
  EXPECT_EQ(denial(job),
            "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology "
            "simultaneously");
}

TEST(JobsValidateCreate, TaskMinAvailableAboveReplicas) {
  json job = valid_job();
  job["spec"]["tasks"][0]["minAvailable"] = 2;
  EXPECT_EQ(denial(job), "'minAvailable' is greater than 'replicas' in task: worker, job: job1;");
}

TEST(JobsValidateCreate, DuplicateTaskNameStopsTheTaskLoop) {
  json job = valid_job();
  json bad = task("worker", 1);
  bad["template"]["spec"]["containers"][0].erase("image");  // never checked: loop stopped
  job["spec"]["tasks"] = json::array({task("worker", 1), bad});
  EXPECT_EQ(denial(job), "duplicated task name worker;");
}

TEST(JobsValidateCreate, TaskPolicyErrorCarriesValidLists) {
  json job = valid_job();
  job["spec"]["tasks"][0]["policies"] =
      json::array({{{"event", "PodFailed"}, {"exitCode", 1}, {"action", "AbortJob"}}});
  EXPECT_EQ(
      denial(job),
      "1 error occurred:\n\t* must not specify event and exitCode simultaneously\n\n" + kSuffix);
}

TEST(JobsValidateCreate, PodNameTooLong) {
  json job = valid_job();
  const std::string name(60, 'a');
  job["metadata"]["name"] = name;
  EXPECT_EQ(denial(job),
            "create pod with name " + name +
                "-worker-0 validate failed [name part must be no more than 63 bytes];");
}

TEST(JobsValidateCreate, TemplateErrorsArePrefixedOnce) {
  json job = valid_job();
  job["spec"]["tasks"][0]["template"]["spec"]["containers"] =
      json::array({{{"name", "c"}}, {{"name", "c"}, {"image", "x"}}});
  EXPECT_EQ(denial(job),
            "spec.task[0].template.spec.containers[0].image: Required value. "
            "template.spec.containers[1].name: Duplicate value: \"c\".");
}

TEST(JobsValidateCreate, PartitionPolicyMessages) {
  json job = valid_job();
  job["spec"]["tasks"][0]["replicas"] = 4;
  auto& pp = job["spec"]["tasks"][0]["partitionPolicy"];
  pp = {{"totalPartitions", 0}, {"partitionSize", 2}};
  EXPECT_EQ(denial(job), "'TotalPartitions' must be greater than 0 in task: worker, job: job1");
  pp = {{"totalPartitions", 2}, {"partitionSize", 0}};
  EXPECT_EQ(denial(job), "'PartitionSize' must be greater than 0 in task: worker, job: job1");
  pp = {{"totalPartitions", 3}, {"partitionSize", 2}};
  EXPECT_EQ(denial(job),
            "'Replicas' are not equal to TotalPartitions*PartitionSize in task: worker, job: job1");
  pp = {{"totalPartitions", 2}, {"partitionSize", 2}, {"minPartitions", 1}};
  job["spec"]["tasks"][0]["minAvailable"] = 3;
  EXPECT_EQ(
      denial(job),
      "'MinAvailable' is not equal to MinPartitions*PartitionSize in task: worker, job: job1");
  job["spec"]["tasks"][0]["minAvailable"] = 2;
  pp["networkTopology"] = {{"highestTierAllowed", 1}, {"highestTierName", "t"}};
  EXPECT_EQ(denial(job),
            "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology "
            "simultaneously");
  pp.erase("networkTopology");
  EXPECT_TRUE(create(job).allowed);
}

TEST(JobsValidateCreate, InvalidJobName) {
  json job = valid_job();
  job["metadata"]["name"] = "a/b/c";
  const std::string key_msg =
      "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must "
      "start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
      "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with "
      "an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
  EXPECT_EQ(denial(job), "create pod with name a/b/c-worker-0 validate failed [" + key_msg +
                             "];create job with name a/b/c validate failed [" + key_msg + "]");
}

TEST(JobsValidateCreate, JobMinAvailableAboveTotalReplicas) {
  json job = valid_job();
  job["spec"]["minAvailable"] = 5;
  EXPECT_EQ(denial(job), "job 'minAvailable' should not be greater than total replicas in tasks;");
}

TEST(JobsValidateCreate, JobPolicyErrors) {
  json job = valid_job();
  job["spec"]["policies"] = json::array({json::object()});
  EXPECT_EQ(denial(job),
            "1 error occurred:\n\t* either event and exitCode should be specified\n\n" + kSuffix);
}

TEST(JobsValidateCreate, UnknownPluginsAreListedInNameOrder) {
  json job = valid_job();
  job["spec"]["plugins"] = {{"zeta", json::array()}, {"alpha", json::array()}, {"env", nullptr}};
  EXPECT_EQ(denial(job), "unable to find job plugin: alpha; unable to find job plugin: zeta;");
}

TEST(JobsValidateCreate, VolumeMessages) {
  json job = valid_job();
  auto& volumes = job["spec"]["volumes"];
  volumes = json::array({json::object()});
  EXPECT_EQ(denial(job), "mountPath is required;");
  volumes = json::array({{{"mountPath", "/a"}, {"volumeClaimName", "pvc"}},
                         {{"mountPath", "/a"}, {"volumeClaimName", "pvc"}}});
  EXPECT_EQ(denial(job), "duplicated mountPath: /a;");
  volumes = json::array({{{"mountPath", "/a"}}});
  EXPECT_EQ(denial(job), "either VolumeClaim or VolumeClaimName must be specified;");
  volumes = json::array(
      {{{"mountPath", "/a"}, {"volumeClaimName", "pvc"}, {"volumeClaim", json::object()}}});
  EXPECT_EQ(
      denial(job),
      "conflict: If you want to use an existing PVC, just specify VolumeClaimName.If you want "
      "to create a new PVC, you do not need to specify VolumeClaimName");
  volumes = json::array({{{"mountPath", "/a"}, {"volumeClaimName", "Bad_Name"}}});
  EXPECT_EQ(denial(job),
            "invalid VolumeClaimName Bad_Name : [a lowercase RFC 1123 subdomain must consist of "
            "lower case alphanumeric characters, '-' or '.', and must start and end with an "
            "alphanumeric character (e.g. 'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]");
  volumes = json::array({{{"mountPath", "/a"}, {"volumeClaim", json::object()}}});
  EXPECT_TRUE(create(job).allowed);
}

TEST(JobsValidateCreate, QueueChecks) {
  json job = valid_job();
  job["spec"]["queue"] = "q1";
  EXPECT_EQ(denial(job), "unable to find job queue: queue.scheduling.volcano.sh \"q1\" not found;");

  StaticClusterView view;
  view.add_queue(testing::queue("closed", "Closed"));
  view.add_queue(testing::queue("fresh", ""));
  view.add_queue(testing::queue("root", "Open"));
  view.add_queue(testing::queue("parent", "Open"));
  view.add_queue(testing::queue("child1", "Open", "parent"));
  view.add_queue(testing::queue("child2", "Open", "parent"));
  job["spec"]["queue"] = "closed";
  EXPECT_EQ(create(job, view).message,
            "can only submit job to queue with state `Open`, queue `closed` status is `Closed`;");
  job["spec"]["queue"] = "fresh";
  EXPECT_EQ(create(job, view).message,
            "can only submit job to queue with state `Open`, queue `fresh` status is ``;");
  job["spec"]["queue"] = "root";
  EXPECT_EQ(create(job, view).message, "can not submit job to root queue;");
  job["spec"]["queue"] = "parent";
  EXPECT_EQ(create(job, view).message,
            "can only submit job to leaf queue, queue `parent` has 2 child queues;");
  job["spec"]["queue"] = "child1";
  EXPECT_TRUE(create(job, view).allowed);
}

TEST(JobsValidateCreate, OfflineViewSkipsQueueChecksWithAWarning) {
  StaticClusterView view;
  view.set_online(false);
  json job = valid_job();
  job["spec"]["queue"] = "missing";
  auto r = create(job, view);
  EXPECT_TRUE(r.allowed);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("missing"), std::string::npos);
}

TEST(JobsValidateCreate, DependencyCycles) {
  json job = valid_job();
  json a = task("a", 1);
  json b = task("b", 1);
  a["dependsOn"] = {{"name", json::array({"b"})}};
  b["dependsOn"] = {{"name", json::array({"a"})}};
  job["spec"]["tasks"] = json::array({a, b});
  const std::string msg =
      "job has dependencies between tasks, but doesn't form a directed acyclic graph(DAG);";
  EXPECT_EQ(denial(job), msg);
  b.erase("dependsOn");
  job["spec"]["tasks"] = json::array({a, b});
  EXPECT_TRUE(create(job).allowed);
}

TEST(JobsValidateCreate, MessagesAreConcatenatedInVolcanoOrder) {
  json job = valid_job();
  job["spec"]["tasks"][0]["minAvailable"] = 3;
  job["spec"]["minAvailable"] = 9;
  job["spec"]["plugins"] = {{"nope", json::array()}};
  job["spec"]["queue"] = "q1";
  EXPECT_EQ(
      denial(job),
      "'minAvailable' is greater than 'replicas' in task: worker, job: job1; job "
      "'minAvailable' should not be greater than total replicas in tasks; unable to find job "
      "plugin: nope; unable to find job queue: queue.scheduling.volcano.sh \"q1\" not found;");
}

TEST(JobsValidate, OtherOperationsAreDenied) {
  auto r = admit_jobs_validate(testing::request(kJobsResource, "DELETE", nullptr),
                               testing::open_cluster(), {});
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message, "expect operation to be 'CREATE' or 'UPDATE'");
  r = admit_jobs_validate(testing::request({"", "v1", "pods"}, "CREATE", valid_job()),
                          testing::open_cluster(), {});
  EXPECT_EQ(r.message, "expect resource to be {batch.volcano.sh v1alpha1 jobs}");
}

}  // namespace
}  // namespace vc::webhook::jobs
