#include "controllers/job/state/pod_events.h"

#include <gtest/gtest.h>

namespace vc::controllers::job {
namespace {

using nlohmann::json;

// A pod as the job controller creates it, with the given phase.
json vcjob_pod(const std::string& name, const std::string& phase, const std::string& task = "w") {
  return {{"metadata",
           {{"name", name},
            {"namespace", "ns"},
            {"uid", "uid-" + name},
            {"resourceVersion", "1"},
            {"labels", {{"volcano.sh/partition-id", "2"}}},
            {"annotations",
             {{"volcano.sh/job-name", "j"},
              {"volcano.sh/job-version", "4"},
              {"volcano.sh/task-spec", task}}},
            {"ownerReferences",
             {{{"apiVersion", "batch.volcano.sh/v1alpha1"},
               {"kind", "Job"},
               {"name", "j"},
               {"uid", "job-uid"},
               {"controller", true}}}}}},
          {"status", {{"phase", phase}}}};
}

views::PodViewPtr view(const json& pod) {
  return views::make_pod_view(pod);
}

json with_restarts(json pod, int restarts, int init_restarts = 0) {
  pod["status"]["containerStatuses"] = {{{"name", "c"}, {"restartCount", restarts}}};
  pod["status"]["initContainerStatuses"] = {{{"name", "i"}, {"restartCount", init_restarts}}};
  return pod;
}

json out_of_sync(json pod) {
  pod["metadata"]["annotations"]["volcano.sh/controller-out-of-sync"] = "true";
  return pod;
}

Job job_with_task(std::int32_t replicas, std::int32_t max_retry = 0) {
  Job job;
  job.namespace_ = "ns";
  job.name = "j";
  TaskSpec t;
  t.name = "w";
  t.replicas = replicas;
  t.max_retry = max_retry;
  job.spec.tasks.push_back(t);
  return job;
}

// ---- base_request_for_pod -------------------------------------------------------------------

TEST(BaseRequestForPod, VcjobPodGivesTheRequestFields) {
  auto req = base_request_for_pod(*view(vcjob_pod("j-w-0", "Running")));
  ASSERT_TRUE(req.has_value());
  EXPECT_EQ(req->namespace_, "ns");
  EXPECT_EQ(req->job_name, "j");
  EXPECT_EQ(req->job_uid, "job-uid");
  EXPECT_EQ(req->task_name, "w");
  EXPECT_EQ(req->pod_name, "j-w-0");
  EXPECT_EQ(req->pod_uid, "uid-j-w-0");
  EXPECT_EQ(req->partition_id, "2");
  EXPECT_EQ(req->job_version, 4);
  EXPECT_EQ(req->event, "");
  EXPECT_EQ(req->action, "");
}

TEST(BaseRequestForPod, NoPartitionLabelGivesEmptyPartition) {
  json pod = vcjob_pod("j-w-0", "Running");
  pod["metadata"].erase("labels");
  EXPECT_EQ(base_request_for_pod(*view(pod))->partition_id, "");
}

TEST(BaseRequestForPod, RejectsPodsNotControlledByAVcjob) {
  json no_owner = vcjob_pod("p", "Running");
  no_owner["metadata"].erase("ownerReferences");
  json not_controller = vcjob_pod("p", "Running");
  not_controller["metadata"]["ownerReferences"][0]["controller"] = false;
  json other_kind = vcjob_pod("p", "Running");
  other_kind["metadata"]["ownerReferences"][0]["kind"] = "CronJob";
  json other_version = vcjob_pod("p", "Running");
  other_version["metadata"]["ownerReferences"][0]["apiVersion"] = "batch/v1";
  for (const json& pod : {no_owner, not_controller, other_kind, other_version}) {
    EXPECT_FALSE(base_request_for_pod(*view(pod)).has_value()) << pod["metadata"].dump();
  }
}

TEST(BaseRequestForPod, RejectsMissingAnnotations) {
  for (const char* key :
       {"volcano.sh/job-name", "volcano.sh/job-version", "volcano.sh/task-spec"}) {
    json pod = vcjob_pod("p", "Running");
    pod["metadata"]["annotations"].erase(key);
    EXPECT_FALSE(base_request_for_pod(*view(pod)).has_value()) << key;
  }
}

TEST(BaseRequestForPod, JobVersionMustParseAsInt32) {
  const std::vector<std::pair<std::string, std::optional<std::int32_t>>> cases = {
      {"0", 0},
      {"+7", 7},
      {"-3", -3},
      {"2147483647", 2147483647},
      {"", std::nullopt},
      {"2147483648", std::nullopt},
      {"1.0", std::nullopt},
      {" 1", std::nullopt},
      {"1x", std::nullopt},
      {"+-1", std::nullopt},
      {"+", std::nullopt}};
  for (const auto& [text, expected] : cases) {
    json pod = vcjob_pod("p", "Running");
    pod["metadata"]["annotations"]["volcano.sh/job-version"] = text;
    auto req = base_request_for_pod(*view(pod));
    ASSERT_EQ(req.has_value(), expected.has_value()) << "'" << text << "'";
    if (req) {
      EXPECT_EQ(req->job_version, *expected) << "'" << text << "'";
    }
  }
}

// ---- add / delete
// --------------------------------------------------------------------------------

TEST(ClassifyPodAdd, AnyPhaseIsPodPending) {
  for (const char* phase : {"Pending", "Running", "Succeeded", "Failed"}) {
    EXPECT_EQ(classify_pod_add(*view(vcjob_pod("p", phase))), (PodEvent{"PodPending", 0})) << phase;
  }
}

TEST(ClassifyPodAdd, OutOfSyncPodIsOutOfSync) {
  EXPECT_EQ(classify_pod_add(*view(out_of_sync(vcjob_pod("p", "Running")))).event, "OutOfSync");
}

TEST(ClassifyPodDelete, CachedPodIsEvicted) {
  EXPECT_EQ(classify_pod_delete(*view(vcjob_pod("p", "Running")), true),
            (PodEvent{"PodEvicted", 0}));
}

TEST(ClassifyPodDelete, UncachedOrOutOfSyncPodIsOutOfSync) {
  EXPECT_EQ(classify_pod_delete(*view(vcjob_pod("p", "Running")), false).event, "OutOfSync");
  EXPECT_EQ(classify_pod_delete(*view(out_of_sync(vcjob_pod("p", "Running"))), true).event,
            "OutOfSync");
}

// ---- update
// ---------------------------------------------------------------------------------------

PodEvent update(const json& old_pod, const json& new_pod, const Job* job,
                std::vector<json> others = {}) {
  std::vector<views::PodViewPtr> pods{view(new_pod)};
  for (const auto& o : others) pods.push_back(view(o));
  return classify_pod_update(*view(old_pod), *view(new_pod), job, pods);
}

TEST(ClassifyPodUpdate, NoInterestingChangeIsOutOfSync) {
  Job job = job_with_task(2);
  EXPECT_EQ(update(vcjob_pod("p", "Failed"), vcjob_pod("p", "Failed"), &job),
            (PodEvent{"OutOfSync", 0}));
  EXPECT_EQ(update(vcjob_pod("p", "Succeeded"), vcjob_pod("p", "Succeeded"), &job).event,
            "OutOfSync");
  EXPECT_EQ(update(vcjob_pod("p", "Pending"), vcjob_pod("p", "Unknown"), &job).event, "OutOfSync");
}

TEST(ClassifyPodUpdate, EnteringFailedIsPodFailedWithFirstContainerExitCode) {
  Job job = job_with_task(2);
  json failed = vcjob_pod("p", "Failed");
  failed["status"]["containerStatuses"] = {
      {{"name", "a"}, {"state", {{"terminated", {{"exitCode", 137}}}}}},
      {{"name", "b"}, {"state", {{"terminated", {{"exitCode", 1}}}}}}};
  EXPECT_EQ(update(vcjob_pod("p", "Running"), failed, &job), (PodEvent{"PodFailed", 137}));
}

TEST(ClassifyPodUpdate, PodFailedWithoutTerminatedStateHasExitCodeZero) {
  Job job = job_with_task(2);
  json failed = vcjob_pod("p", "Failed");
  failed["status"]["containerStatuses"] = {
      {{"name", "a"}, {"state", {{"waiting", json::object()}}}}};
  EXPECT_EQ(update(vcjob_pod("p", "Running"), failed, &job), (PodEvent{"PodFailed", 0}));
  EXPECT_EQ(update(vcjob_pod("p", "Pending"), vcjob_pod("p", "Failed"), nullptr),
            (PodEvent{"PodFailed", 0}));
}

TEST(ClassifyPodUpdate, EnteringSucceededCompletesTaskWhenAllReplicasSucceeded) {
  Job job = job_with_task(2);
  json done = vcjob_pod("j-w-1", "Succeeded");
  EXPECT_EQ(
      update(vcjob_pod("j-w-1", "Running"), done, &job, {vcjob_pod("j-w-0", "Running")}).event,
      "OutOfSync");
  EXPECT_EQ(
      update(vcjob_pod("j-w-1", "Running"), done, &job, {vcjob_pod("j-w-0", "Succeeded")}).event,
      "TaskCompleted");
}

TEST(ClassifyPodUpdate, TaskCompletedCountsOnlyPodsOfThatTask) {
  Job job = job_with_task(2);
  json done = vcjob_pod("j-w-1", "Succeeded");
  EXPECT_EQ(
      update(vcjob_pod("j-w-1", "Running"), done, &job, {vcjob_pod("j-ps-0", "Succeeded", "ps")})
          .event,
      "OutOfSync");
}

TEST(ClassifyPodUpdate, TaskCompletedNeedsCachedJobAndReplicas) {
  json done = vcjob_pod("j-w-0", "Succeeded");
  EXPECT_EQ(update(vcjob_pod("j-w-0", "Running"), done, nullptr).event, "OutOfSync");
  Job zero = job_with_task(0);
  EXPECT_EQ(update(vcjob_pod("j-w-0", "Running"), done, &zero).event, "OutOfSync");
  Job other = job_with_task(1);
  other.spec.tasks[0].name = "ps";  // the pod's task is not in the spec
  EXPECT_EQ(update(vcjob_pod("j-w-0", "Running"), done, &other).event, "OutOfSync");
}

TEST(ClassifyPodUpdate, EnteringRunningIsPodRunningEvenWhenTaskFailed) {
  Job job = job_with_task(1, 1);
  EXPECT_EQ(
      update(vcjob_pod("p", "Pending"), with_restarts(vcjob_pod("p", "Running"), 5), &job).event,
      "PodRunning");
}

TEST(ClassifyPodUpdate, StillRunningWithTooManyRestartsIsTaskFailed) {
  Job job = job_with_task(2, 3);
  json old_pod = vcjob_pod("j-w-0", "Running");
  // 1 + 1 (init) here and 1 on the other Running pod: 3 >= maxRetry 3.
  json now = with_restarts(old_pod, 1, 1);
  EXPECT_EQ(update(old_pod, now, &job, {with_restarts(vcjob_pod("j-w-1", "Running"), 1)}).event,
            "TaskFailed");
  EXPECT_EQ(update(old_pod, now, &job, {with_restarts(vcjob_pod("j-w-1", "Running"), 0)}).event,
            "OutOfSync");
}

TEST(ClassifyPodUpdate, RestartsOfFinishedPodsDoNotCount) {
  Job job = job_with_task(2, 3);
  json old_pod = vcjob_pod("j-w-0", "Running");
  json now = with_restarts(old_pod, 2);
  EXPECT_EQ(update(old_pod, now, &job, {with_restarts(vcjob_pod("j-w-1", "Succeeded"), 9)}).event,
            "OutOfSync");
}

TEST(ClassifyPodUpdate, MaxRetryZeroMeansThreeAndMinusOneDisables) {
  json old_pod = vcjob_pod("j-w-0", "Running");
  Job zero = job_with_task(1, 0);
  EXPECT_EQ(update(old_pod, with_restarts(old_pod, 2), &zero).event, "OutOfSync");
  EXPECT_EQ(update(old_pod, with_restarts(old_pod, 3), &zero).event, "TaskFailed");
  Job unlimited = job_with_task(1, -1);
  EXPECT_EQ(update(old_pod, with_restarts(old_pod, 100), &unlimited).event, "OutOfSync");
}

TEST(ClassifyPodUpdate, TaskFailedNeedsReplicasAndCachedJob) {
  json old_pod = vcjob_pod("j-w-0", "Running");
  Job zero = job_with_task(0, 1);
  EXPECT_EQ(update(old_pod, with_restarts(old_pod, 5), &zero).event, "OutOfSync");
  EXPECT_EQ(update(old_pod, with_restarts(old_pod, 5), nullptr).event, "OutOfSync");
}

TEST(ClassifyPodUpdate, PendingWithTooManyRestartsIsTaskFailedUnlessItJustBecamePending) {
  Job job = job_with_task(1, 1);
  json pending = with_restarts(vcjob_pod("j-w-0", "Pending"), 1);
  EXPECT_EQ(update(vcjob_pod("j-w-0", "Pending"), pending, &job).event, "TaskFailed");
  EXPECT_EQ(update(vcjob_pod("j-w-0", "Running"), pending, &job).event, "PodPending");
  Job lenient = job_with_task(1, 5);
  EXPECT_EQ(update(vcjob_pod("j-w-0", "Pending"), pending, &lenient).event, "OutOfSync");
}

TEST(ClassifyPodUpdate, OutOfSyncAnnotationOverridesEverything) {
  Job job = job_with_task(1, 1);
  json failed = out_of_sync(vcjob_pod("p", "Failed"));
  failed["status"]["containerStatuses"] = {
      {{"name", "a"}, {"state", {{"terminated", {{"exitCode", 2}}}}}}};
  // The exit code computed for PodFailed stays in the request, as Volcano's does.
  EXPECT_EQ(update(vcjob_pod("p", "Running"), failed, &job), (PodEvent{"OutOfSync", 2}));
  EXPECT_EQ(update(vcjob_pod("p", "Pending"), out_of_sync(vcjob_pod("p", "Running")), &job).event,
            "OutOfSync");
  EXPECT_EQ(
      update(vcjob_pod("j-w-0", "Running"), out_of_sync(vcjob_pod("j-w-0", "Succeeded")), &job)
          .event,
      "OutOfSync");
}

json deleting(json pod) {
  pod["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z";
  return pod;
}

json at_version(json pod, const std::string& version) {
  pod["metadata"]["annotations"]["volcano.sh/job-version"] = version;
  return pod;
}

// U6: job_pods() gives the pods we killed a deletionTimestamp while the cache still shows them
// live; without the fix the first case is TaskCompleted and the second TaskFailed.
TEST(ClassifyPodUpdate, TerminatingPodsCountTowardsNoTaskVerdict) {
  Job job = job_with_task(2, 3);
  json done = vcjob_pod("j-w-1", "Succeeded");
  EXPECT_EQ(
      update(vcjob_pod("j-w-1", "Running"), done, &job, {deleting(vcjob_pod("j-w-0", "Succeeded"))})
          .event,
      "OutOfSync");
  json running = vcjob_pod("j-w-1", "Running");
  EXPECT_EQ(
      update(running, running, &job, {deleting(with_restarts(vcjob_pod("j-w-0", "Running"), 3))})
          .event,
      "OutOfSync");
}

// U6: a running pod of the version before a full kill is one the kill is removing; without the
// fix its restarts fire TaskFailed again on the restarted job.
TEST(ClassifyPodUpdate, UnfinishedPodsOfAnOlderJobVersionFailNoTask) {
  Job job = job_with_task(2, 3);
  job.status.version = 5;
  json running = at_version(vcjob_pod("j-w-1", "Running"), "5");
  EXPECT_EQ(update(running, running, &job, {with_restarts(vcjob_pod("j-w-0", "Running"), 3)}).event,
            "OutOfSync");
  EXPECT_EQ(update(running, running, &job,
                   {at_version(with_restarts(vcjob_pod("j-w-0", "Running"), 3), "5")})
                .event,
            "TaskFailed");
}

// A Soft kill (Abort, Complete, Terminate) retains finished pods and a resumed job adopts them:
// they still complete their task, as in Volcano.
TEST(ClassifyPodUpdate, FinishedPodsOfAnOlderJobVersionStillCompleteTheirTask) {
  Job job = job_with_task(2);
  job.status.version = 5;
  json done = at_version(vcjob_pod("j-w-1", "Succeeded"), "5");
  EXPECT_EQ(update(at_version(vcjob_pod("j-w-1", "Running"), "5"), done, &job,
                   {vcjob_pod("j-w-0", "Succeeded")})
                .event,
            "TaskCompleted");
}

// ---- PodGroup
// ------------------------------------------------------------------------------------

json podgroup(const std::string& phase, json owners = json::array()) {
  return {{"metadata", {{"name", "j-uid"}, {"namespace", "ns"}, {"ownerReferences", owners}}},
          {"spec", {{"minMember", 1}}},
          {"status", {{"phase", phase}}}};
}

json owner(const std::string& kind, const std::string& name) {
  return {{"apiVersion", "whatever/v1"}, {"kind", kind}, {"name", name}, {"uid", "u"}};
}

TEST(PodGroupUpdate, SamePhaseIsIgnored) {
  EXPECT_FALSE(request_for_podgroup_update(*views::make_podgroup_view(podgroup("Inqueue")),
                                           *views::make_podgroup_view(podgroup("Inqueue")))
                   .has_value());
}

TEST(PodGroupUpdate, PhaseChangeEnqueuesTheOwningJobWithEmptyEvent) {
  json owners = {owner("Job", "first"), owner("Deployment", "d"), owner("Job", "last")};
  auto req = request_for_podgroup_update(*views::make_podgroup_view(podgroup("Pending", owners)),
                                         *views::make_podgroup_view(podgroup("Inqueue", owners)));
  ASSERT_TRUE(req.has_value());
  Request expected;
  expected.namespace_ = "ns";
  expected.job_name = "last";
  EXPECT_EQ(*req, expected);
}

TEST(PodGroupUpdate, WithoutJobOwnerTheJobIsThePodGroupName) {
  auto req = request_for_podgroup_update(
      *views::make_podgroup_view(podgroup("")),
      *views::make_podgroup_view(podgroup("Running", json::array({owner("ReplicaSet", "r")}))));
  ASSERT_TRUE(req.has_value());
  EXPECT_EQ(req->job_name, "j-uid");
  EXPECT_EQ(req->event, "");
}

TEST(PodGroupUpdate, UnknownPhaseIsTheUnknownEvent) {
  auto req = request_for_podgroup_update(*views::make_podgroup_view(podgroup("Running")),
                                         *views::make_podgroup_view(podgroup("Unknown")));
  ASSERT_TRUE(req.has_value());
  EXPECT_EQ(req->event, "Unknown");
  EXPECT_EQ(req->job_version, 0);
}

}  // namespace
}  // namespace vc::controllers::job
