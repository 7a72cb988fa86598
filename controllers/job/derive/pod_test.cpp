#include "controllers/job/derive/pod.h"

#include <gtest/gtest.h>

#include <set>

#include "controllers/job/derive/test_jobs.h"

namespace vc::controllers::job {
namespace {

using nlohmann::json;
using testing::make_job;
using testing::make_task;

// Deterministic volume names: r1, r2, ...
RandomName counter() {
  auto n = std::make_shared<int>(0);
  return [n] { return "r" + std::to_string(++*n); };
}

json basic_template() {
  return {{"metadata",
           {{"name", "ignored"}, {"labels", {{"app", "x"}}}, {"annotations", {{"note", "y"}}}}},
          {"spec",
           {{"containers", json::array({{{"name", "main"}, {"image", "busybox"}}})},
            {"restartPolicy", "Never"}}}};
}

TEST(BuildPod, SetsIdentityOwnerTemplateAndEveryKey) {
  Job job = make_job();
  job.spec.queue = "q1";
  job.status.version = 3;
  job.status.retry_count = 2;
  TaskSpec task = make_task("worker", 4);
  const json pod = build_pod(job, task, 1, basic_template(), counter());

  const json expected = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata",
       {{"name", "job1-worker-1"},
        {"namespace", "ns1"},
        {"ownerReferences", json::array({{{"apiVersion", "batch.volcano.sh/v1alpha1"},
                                          {"kind", "Job"},
                                          {"name", "job1"},
                                          {"uid", "0a1b2c3d-uid"},
                                          {"controller", true},
                                          {"blockOwnerDeletion", true}}})},
        {"labels",
         {{"app", "x"},
          {"volcano.sh/task-index", "1"},
          {"volcano.sh/job-name", "job1"},
          {"volcano.sh/task-spec", "worker"},
          {"volcano.sh/job-namespace", "ns1"},
          {"volcano.sh/queue-name", "q1"}}},
        {"annotations",
         {{"note", "y"},
          {"volcano.sh/task-index", "1"},
          {"volcano.sh/task-spec", "worker"},
          {"scheduling.k8s.io/group-name", "job1-0a1b2c3d-uid"},
          {"volcano.sh/job-name", "job1"},
          {"volcano.sh/queue-name", "q1"},
          {"volcano.sh/job-version", "3"},
          {"volcano.sh/template-uid", "job1-worker"},
          {"volcano.sh/job-retry-count", "2"}}}}},
      {"spec",
       {{"containers", json::array({{{"name", "main"}, {"image", "busybox"}}})},
        {"restartPolicy", "Never"},
        {"schedulerName", "volcano"}}}};
  EXPECT_EQ(pod, expected) << pod.dump(2);
}

TEST(BuildPod, ControllerKeysOverrideTemplateValues) {
  Job job = make_job();
  json tmpl = basic_template();
  tmpl["metadata"]["labels"]["volcano.sh/job-name"] = "forged";
  tmpl["metadata"]["annotations"]["volcano.sh/task-index"] = "99";
  const json pod = build_pod(job, make_task("w", 1), 0, tmpl, counter());
  EXPECT_EQ(pod["metadata"]["labels"]["volcano.sh/job-name"], "job1");
  EXPECT_EQ(pod["metadata"]["annotations"]["volcano.sh/task-index"], "0");
}

TEST(BuildPod, EmptyTaskNameUsesDefaultTaskSpecButKeepsNamesLiteral) {
  const json pod = build_pod(make_job(), make_task("", 1), 0, basic_template(), counter());
  EXPECT_EQ(pod["metadata"]["name"], "job1--0");
  EXPECT_EQ(pod["metadata"]["labels"]["volcano.sh/task-spec"], "default");
  EXPECT_EQ(pod["metadata"]["annotations"]["volcano.sh/task-spec"], "default");
  EXPECT_EQ(pod["metadata"]["annotations"]["volcano.sh/template-uid"], "job1-");
}

TEST(BuildPod, SchedulerNameFallsBackToTheJobsOnlyWhenTemplateHasNone) {
  Job job = make_job();
  json tmpl = basic_template();
  tmpl["spec"]["schedulerName"] = "custom";
  EXPECT_EQ(build_pod(job, make_task("w", 1), 0, tmpl, counter())["spec"]["schedulerName"],
            "custom");
  tmpl["spec"]["schedulerName"] = "";
  EXPECT_EQ(build_pod(job, make_task("w", 1), 0, tmpl, counter())["spec"]["schedulerName"],
            "volcano");
  job.spec.scheduler_name.clear();
  EXPECT_FALSE(
      build_pod(job, make_task("w", 1), 0, tmpl, counter())["spec"].contains("schedulerName"));
}

TEST(BuildPod, PriorityClassFallsBackToTheJobsOnlyWhenTemplateHasNone) {
  Job job = make_job();
  json tmpl = basic_template();
  EXPECT_FALSE(
      build_pod(job, make_task("w", 1), 0, tmpl, counter())["spec"].contains("priorityClassName"));
  job.spec.priority_class_name = "job-pc";
  EXPECT_EQ(build_pod(job, make_task("w", 1), 0, tmpl, counter())["spec"]["priorityClassName"],
            "job-pc");
  tmpl["spec"]["priorityClassName"] = "task-pc";
  EXPECT_EQ(build_pod(job, make_task("w", 1), 0, tmpl, counter())["spec"]["priorityClassName"],
            "task-pc");
}

TEST(BuildPod, JobVolumesAreDeduplicatedByClaimAndMountedInRegularContainersOnly) {
  Job job = make_job();
  job.spec.volumes = {{"/data", "claim-a", std::nullopt},
                      {"/other", "claim-b", std::nullopt},
                      {"/dup", "claim-a", std::nullopt}};
  json tmpl = basic_template();
  tmpl["spec"]["containers"].push_back(
      {{"name", "side"},
       {"volumeMounts", json::array({{{"name", "own"}, {"mountPath", "/own"}}})}});
  tmpl["spec"]["initContainers"] = json::array({{{"name", "init"}}});
  tmpl["spec"]["volumes"] = json::array({{{"name", "own"}, {"emptyDir", json::object()}}});
  const json pod = build_pod(job, make_task("w", 1), 0, tmpl, counter());

  EXPECT_EQ(
      pod["spec"]["volumes"],
      json::array({{{"name", "own"}, {"emptyDir", json::object()}},
                   {{"name", "job1-r1"}, {"persistentVolumeClaim", {{"claimName", "claim-a"}}}},
                   {{"name", "job1-r2"}, {"persistentVolumeClaim", {{"claimName", "claim-b"}}}}}));
  const json mounts = json::array({{{"name", "job1-r1"}, {"mountPath", "/data"}},
                                   {{"name", "job1-r2"}, {"mountPath", "/other"}}});
  EXPECT_EQ(pod["spec"]["containers"][0]["volumeMounts"], mounts);
  json side = json::array({{{"name", "own"}, {"mountPath", "/own"}}});
  for (const json& m : mounts) side.push_back(m);
  EXPECT_EQ(pod["spec"]["containers"][1]["volumeMounts"], side);
  EXPECT_FALSE(pod["spec"]["initContainers"][0].contains("volumeMounts"));
}

TEST(BuildPod, PartitionIdIsIndexOverPartitionSize) {
  TaskSpec task = make_task("w", 8);
  EXPECT_FALSE(
      build_pod(make_job(), task, 5, basic_template(), counter())["metadata"]["labels"].contains(
          "volcano.sh/partition-id"));
  task.partition_policy = PartitionPolicy{4, 2, 1, std::nullopt};
  EXPECT_EQ(build_pod(make_job(), task, 5, basic_template(),
                      counter())["metadata"]["labels"]["volcano.sh/partition-id"],
            "2");
  task.partition_policy->partition_size = 0;
  EXPECT_EQ(build_pod(make_job(), task, 5, basic_template(),
                      counter())["metadata"]["labels"]["volcano.sh/partition-id"],
            "0");
}

TEST(BuildPod, CopiesSchedulingKeysFromJobAnnotationsAndLabels) {
  Job job = make_job();
  job.annotations = {{"unrelated", "no"},
                     {"volcano.sh/cooldown-time", "60s"},
                     {"volcano.sh/jdb-max-unavailable", "2"},
                     {"volcano.sh/jdb-min-available", "1"},
                     {"volcano.sh/preemptable", "true"},
                     {"volcano.sh/revocable-zone", "*"}};
  job.labels = {{"volcano.sh/cooldown-time", "30s"},
                {"volcano.sh/preemptable", "false"},
                {"volcano.sh/revocable-zone", "label-not-copied"}};
  TaskSpec task = make_task("w", 1);
  task.topology_policy = "best-effort";
  const json pod = build_pod(job, task, 0, basic_template(), counter());
  const json& a = pod["metadata"]["annotations"];
  const json& l = pod["metadata"]["labels"];
  EXPECT_EQ(a["volcano.sh/preemptable"], "true");
  EXPECT_EQ(a["volcano.sh/cooldown-time"], "60s");
  EXPECT_EQ(a["volcano.sh/revocable-zone"], "*");
  EXPECT_EQ(a["volcano.sh/jdb-min-available"], "1");
  EXPECT_FALSE(a.contains("volcano.sh/jdb-max-unavailable"));  // min-available wins
  EXPECT_EQ(a["volcano.sh/numa-topology-policy"], "best-effort");
  EXPECT_FALSE(a.contains("unrelated"));
  EXPECT_EQ(l["volcano.sh/preemptable"], "false");
  EXPECT_EQ(l["volcano.sh/cooldown-time"], "30s");
  EXPECT_FALSE(l.contains("volcano.sh/revocable-zone"));

  job.annotations = {{"volcano.sh/jdb-max-unavailable", "2"}};
  EXPECT_EQ(build_pod(job, task, 0, basic_template(),
                      counter())["metadata"]["annotations"]["volcano.sh/jdb-max-unavailable"],
            "2");
}

TEST(BuildPod, JobForwardingAnnotationMarksThePod) {
  Job job = make_job();
  EXPECT_FALSE(
      build_pod(job, make_task("w", 1), 0, basic_template(), counter())["metadata"]["labels"]
          .contains("volcano.sh/job-forwarding"));
  job.annotations = {{"volcano.sh/job-forwarding", "true"}};
  const json pod = build_pod(job, make_task("w", 1), 0, basic_template(), counter());
  EXPECT_EQ(pod["metadata"]["labels"]["volcano.sh/job-forwarding"], "true");
  EXPECT_EQ(pod["metadata"]["annotations"]["volcano.sh/job-forwarding"], "true");
}

TEST(BuildPod, TemplateWithoutMetadataOrSpecStillYieldsAPod) {
  const json pod = build_pod(make_job(), make_task("w", 1), 0, json::object(), counter());
  EXPECT_EQ(pod["metadata"]["labels"]["volcano.sh/task-spec"], "w");
  EXPECT_EQ(pod["spec"], (json{{"schedulerName", "volcano"}}));
}

TEST(BuildPod, MistypedTemplateFieldThrowsNamingIt) {
  json tmpl = basic_template();
  tmpl["metadata"]["labels"] = "not-an-object";
  try {
    build_pod(make_job(), make_task("w", 1), 0, tmpl, counter());
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("template.metadata.labels"), std::string::npos)
        << e.what();
  }
}

TEST(RandomName12, IsTwelveLowercaseAlphanumericsAndVaries) {
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    const std::string s = random_name12();
    ASSERT_EQ(s.size(), 12u) << s;
    for (char c : s) ASSERT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) << s;
    seen.insert(s);
  }
  EXPECT_EQ(seen.size(), 50u);
}

}  // namespace
}  // namespace vc::controllers::job
