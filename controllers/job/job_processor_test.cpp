// The job controller's processing of one request at a time, on in-memory parts
// (processor_fixture.h): for each phase transition and policy, the exact ordered list of API
// writes and events.

#include "controllers/job/job_processor.h"

#include <gtest/gtest.h>

#include "controllers/job/processor_fixture.h"

namespace vc::controllers::job {
namespace {

using nlohmann::json;
using testing::job_json;
using testing::JobFixture;
using Lines = std::vector<std::string>;

constexpr const char* kPodGroup = "ns1/job1-uid-2";  // "<job>-<uid>"; the Queue took uid-1

Request pod_request(const std::string& pod, const std::string& task, const char* event,
                    int exit_code = 0) {
  Request r = job_request("ns1", "job1", event);
  r.task_name = task;
  r.pod_name = pod;
  r.exit_code = exit_code;
  return r;
}

// A job of two pods brought to Running: PodGroup, status, pods created, pods running.
void run_job(JobFixture& f, json job = job_json("job1", {{"main", 2}})) {
  f.add_job(std::move(job));
  ASSERT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  f.set_podgroup_phase("job1", "Inqueue");
  ASSERT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  f.catch_up();
  f.set_pod_phase(f.pod_names(), "Running");
  f.set_podgroup_phase("job1", "Running");
  ASSERT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  f.catch_up();
  ASSERT_EQ(f.job_phase(), "Running");
  f.take_writes();
  f.take_events();
}

json with_policies(json job, json policies) {
  job["spec"]["policies"] = std::move(policies);
  return job;
}

std::string dump(const Lines& lines) {
  std::string out;
  for (const auto& l : lines) out += "  " + l + "\n";
  return out;
}

#define EXPECT_LINES(actual, ...)                                                 \
  do {                                                                            \
    const Lines got_ = (actual);                                                  \
    const Lines want_ = __VA_ARGS__;                                              \
    EXPECT_EQ(got_, want_) << "got:\n" << dump(got_) << "want:\n" << dump(want_); \
  } while (0)

TEST(JobProcessor, NewJobGetsItsPodGroupAndPendingStatusButNoPodsBeforeAdmission) {
  JobFixture f;
  f.add_job(job_json("job1", {{"main", 2}}));
  f.take_writes();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {std::string("create podgroups ") + kPodGroup,
                                 "update-status jobs ns1/job1 Pending"});
  EXPECT_LINES(f.take_events(), {});
  EXPECT_EQ(f.job_status()["minAvailable"], 2);
  // A second sync before the scheduler admits the PodGroup changes nothing.
  f.catch_up();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {});
}

// The PodGroup create of the first sync is not in the cache yet: the second sync creates it again,
// takes AlreadyExists as made, and waits for admission as before (no pods, no error, no event).
TEST(JobProcessor, SyncOnACacheLackingThePodGroupWeCreatedTakesAlreadyExistsAsMade) {
  JobFixture f;
  f.add_job(job_json("job1", {{"main", 2}}));
  f.process(JobFixture::sync());
  f.take_writes();
  f.catch_up_lacking(kube::resources::podgroups, {kPodGroup});
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  // The repeated create (refused with AlreadyExists), and nothing else.
  EXPECT_LINES(f.take_writes(), {std::string("create podgroups ") + kPodGroup});
  EXPECT_LINES(f.take_events(), {});
  EXPECT_EQ(f.job_status()["state"]["phase"], "Pending");
  EXPECT_EQ(f.api.find(kube::resources::pods, "ns1/job1-main-0"), std::nullopt);
}

TEST(JobProcessor, AdmittedJobCreatesEveryPodAndCountsThemPending) {
  JobFixture f;
  f.add_job(job_json("job1", {{"ps", 1}, {"worker", 2}}));
  f.process(JobFixture::sync());
  f.set_podgroup_phase("job1", "Inqueue");
  f.take_writes();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(),
               {"create pods ns1/job1-ps-0", "create pods ns1/job1-worker-0",
                "create pods ns1/job1-worker-1", "update-status jobs ns1/job1 Pending"});
  EXPECT_EQ(f.job_status()["pending"], 3);
  const json pod = *f.api.find(kube::resources::pods, "ns1/job1-worker-1");
  EXPECT_EQ(pod["metadata"]["annotations"]["volcano.sh/task-index"], "1");
  EXPECT_EQ(pod["metadata"]["annotations"]["scheduling.k8s.io/group-name"], "job1-uid-2");
}

TEST(JobProcessor, RunningPodsMakeTheJobRunning) {
  JobFixture f;
  f.add_job(job_json("job1", {{"main", 2}}));
  f.process(JobFixture::sync());
  f.set_podgroup_phase("job1", "Inqueue");
  f.process(JobFixture::sync());
  f.catch_up();
  f.set_pod_phase({"job1-main-0", "job1-main-1"}, "Running");
  f.take_writes();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"update-status jobs ns1/job1 Running"});
  EXPECT_EQ(f.job_status()["running"], 2);
}

TEST(JobProcessor, SucceededPodsCompleteTheJob) {
  JobFixture f;
  run_job(f);
  f.set_pod_phase({"job1-main-0", "job1-main-1"}, "Succeeded", 0);
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"update-status jobs ns1/job1 Completed"});
  EXPECT_EQ(f.job_status()["succeeded"], 2);
}

TEST(JobProcessor, PodFailedUnderRestartJobKillsEveryPodThenStartsAgain) {
  JobFixture f;
  run_job(f, with_policies(job_json("job1", {{"main", 2}}),
                           json::array({{{"event", "PodFailed"}, {"action", "RestartJob"}}})));
  f.set_pod_phase({"job1-main-0"}, "Failed", 1);
  EXPECT_EQ(f.process(pod_request("job1-main-0", "main", event::kPodFailed, 1)).kind(),
            ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_events(), {"Normal ExecuteAction: Start to execute action RestartJob "});
  EXPECT_LINES(f.take_writes(), {"patch pods ns1/job1-main-0", "delete pods ns1/job1-main-0",
                                 "patch pods ns1/job1-main-1", "delete pods ns1/job1-main-1",
                                 "update-status jobs ns1/job1 Restarting",
                                 std::string("delete podgroups ") + kPodGroup});
  EXPECT_EQ(f.job_status()["retryCount"], 1);
  // The pods are gone: the job gets a new PodGroup (named as before), and once the scheduler
  // admits it the pods come back and the restart ends.
  f.catch_up();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {std::string("create podgroups ") + kPodGroup});
  EXPECT_EQ(f.job_phase(), "Restarting");
  f.set_podgroup_phase("job1", "Inqueue");
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"create pods ns1/job1-main-0", "create pods ns1/job1-main-1",
                                 "update-status jobs ns1/job1 Pending"});
  EXPECT_EQ(f.job_status()["version"], 1);
}

TEST(JobProcessor, AbortCommandIsDeletedFirstThenAbortsTheJob) {
  JobFixture f;
  run_job(f);
  f.api.put(kube::resources::commands,
            {{"apiVersion", "bus.volcano.sh/v1alpha1"},
             {"kind", "Command"},
             {"metadata",
              {{"name", "abort-1"},
               {"namespace", "ns1"},
               {"ownerReferences", json::array({{{"apiVersion", "batch.volcano.sh/v1alpha1"},
                                                 {"kind", "Job"},
                                                 {"name", "job1"},
                                                 {"uid", "uid-3"},
                                                 {"controller", true}}})}}},
             {"action", "AbortJob"},
             {"target",
              {{"apiVersion", "batch.volcano.sh/v1alpha1"}, {"kind", "Job"}, {"name", "job1"}}}});
  f.catch_up();
  EXPECT_EQ(f.process_command("ns1/abort-1").kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"delete commands ns1/abort-1"});
  EXPECT_LINES(f.take_events(), {"Normal CommandIssued: Start to execute command AbortJob, and "
                                 "clean it up to make sure executed not more than once."});
  ASSERT_EQ(f.enqueued.size(), 1u);
  EXPECT_EQ(f.enqueued[0].action, "AbortJob");
  EXPECT_EQ(f.enqueued[0].event, "CommandIssued");

  EXPECT_EQ(f.process(f.enqueued[0]).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_events(), {"Normal ExecuteAction: Start to execute action AbortJob "});
  EXPECT_LINES(f.take_writes(), {"patch pods ns1/job1-main-0", "delete pods ns1/job1-main-0",
                                 "patch pods ns1/job1-main-1", "delete pods ns1/job1-main-1",
                                 "update-status jobs ns1/job1 Aborting",
                                 std::string("delete podgroups ") + kPodGroup});
  f.catch_up();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"update-status jobs ns1/job1 Aborted"});
}

TEST(JobProcessor, PolicyWithATimeoutArmsADelayedActionAndWritesNothing) {
  JobFixture f;
  run_job(f,
          with_policies(
              job_json("job1", {{"main", 2}}),
              json::array({{{"event", "PodFailed"}, {"action", "AbortJob"}, {"timeout", "5m"}}})));
  f.set_pod_phase({"job1-main-0"}, "Failed", 1);
  EXPECT_EQ(f.process(pod_request("job1-main-0", "main", event::kPodFailed, 1)).kind(),
            ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {});
  EXPECT_LINES(f.take_events(), {"Normal ExecuteAction: Execute action AbortJob after 5m0s"});
  EXPECT_EQ(f.timer_wakes, 1);
  ASSERT_EQ(f.delayed.size(), 1u);
  EXPECT_EQ(f.delayed.next_due(), f.steady_now + std::chrono::minutes(5));
}

TEST(JobProcessor, RequestForAJobNotCachedIsDropped) {
  JobFixture f;
  EXPECT_EQ(f.process(JobFixture::sync("nobody")).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {});
}

TEST(JobProcessor, JobOfAMissingQueueFailsWithoutWriting) {
  JobFixture f;
  json job = job_json("job1", {{"main", 1}});
  job["spec"]["queue"] = "missing";
  f.add_job(job);
  f.take_writes();
  const ReconcileResult r = f.process(JobFixture::sync());
  EXPECT_EQ(r.kind(), ReconcileResult::Kind::Error);
  EXPECT_EQ(r.message(), "queue missing not found");
  EXPECT_LINES(f.take_writes(), {});
}

TEST(JobProcessor, FailedPodCreateIsReportedAndRetried) {
  JobFixture f;
  f.add_job(job_json("job1", {{"main", 2}}));
  f.process(JobFixture::sync());
  f.set_podgroup_phase("job1", "Inqueue");
  f.take_writes();
  f.api.fail_next("create", kube::resources::pods, "ns1/job1-main-1",
                  vc::testing::api_error(kube::ErrorKind::Forbidden, "quota exceeded"));
  const ReconcileResult r = f.process(JobFixture::sync());
  EXPECT_EQ(r.kind(), ReconcileResult::Kind::Error);
  EXPECT_EQ(r.message(), "failed to create 1 pods of 2");
  EXPECT_LINES(f.take_writes(), {"create pods ns1/job1-main-0", "create pods ns1/job1-main-1"});
  EXPECT_LINES(f.take_events(), {"Warning FailedCreate: Error creating pods: [failed to create pod "
                                 "job1-main-1, err: Forbidden (403): quota exceeded]"});
}

TEST(JobProcessor, StatusConflictWithAnUnchangedStatusIsRetriedOnTheFreshJob) {
  JobFixture f;
  f.add_job(job_json("job1", {{"main", 1}}));
  f.process(JobFixture::sync());
  f.set_podgroup_phase("job1", "Inqueue");
  f.take_writes();
  f.api.fail_next(
      "update-status", kube::resources::jobs, "ns1/job1",
      vc::testing::api_error(kube::ErrorKind::Conflict, "the object has been modified"));
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(),
               {"create pods ns1/job1-main-0", "update-status jobs ns1/job1 Pending",
                "update-status jobs ns1/job1 Pending"});
  EXPECT_EQ(f.job_status()["pending"], 1);
}

TEST(JobProcessor, GivingUpTerminatesTheJob) {
  JobFixture f;
  run_job(f);
  f.give_up(JobFixture::sync(), "too many failures");
  EXPECT_LINES(f.take_events(),
               {"Normal ExecuteAction: Job failed on action SyncJob for retry limit reached"});
  EXPECT_LINES(f.take_writes(), {"patch pods ns1/job1-main-0", "delete pods ns1/job1-main-0",
                                 "patch pods ns1/job1-main-1", "delete pods ns1/job1-main-1",
                                 "update-status jobs ns1/job1 Terminating",
                                 std::string("delete podgroups ") + kPodGroup});
}

TEST(JobProcessor, RestartTaskKillsOnlyThatTasksPods) {
  JobFixture f;
  json job = job_json("job1", {{"ps", 1}, {"worker", 1}});
  job["spec"]["minAvailable"] = 2;
  job["spec"]["tasks"][1]["policies"] =
      json::array({{{"event", "PodFailed"}, {"action", "RestartTask"}}});
  f.add_job(job);
  f.process(JobFixture::sync());
  f.set_podgroup_phase("job1", "Inqueue");
  f.process(JobFixture::sync());
  f.catch_up();
  f.set_pod_phase({"job1-ps-0", "job1-worker-0"}, "Running");
  f.process(JobFixture::sync());
  f.catch_up();
  f.set_pod_phase({"job1-worker-0"}, "Failed", 2);
  f.take_writes();
  f.take_events();
  EXPECT_EQ(f.process(pod_request("job1-worker-0", "worker", event::kPodFailed, 2)).kind(),
            ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_events(), {"Normal ExecuteAction: Start to execute action RestartTask "});
  // A kill of any scope ends with the PodGroup's deletion (spec job-controller.md §4.3 step 9).
  EXPECT_LINES(f.take_writes(), {"patch pods ns1/job1-worker-0", "delete pods ns1/job1-worker-0",
                                 "update-status jobs ns1/job1 Restarting",
                                 std::string("delete podgroups ") + kPodGroup});
}

Request action_request(const char* action) {
  Request r = job_request("ns1", "job1", event::kCommandIssued);
  r.action = action;
  return r;
}

TEST(JobProcessor, CompleteJobKillsThePodsThenCompletes) {
  JobFixture f;
  run_job(f);
  EXPECT_EQ(f.process(action_request(action::kCompleteJob)).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"patch pods ns1/job1-main-0", "delete pods ns1/job1-main-0",
                                 "patch pods ns1/job1-main-1", "delete pods ns1/job1-main-1",
                                 "update-status jobs ns1/job1 Completing",
                                 std::string("delete podgroups ") + kPodGroup});
  f.catch_up();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"update-status jobs ns1/job1 Completed"});
}

TEST(JobProcessor, TerminateJobKillsThePodsThenTerminates) {
  JobFixture f;
  run_job(f);
  EXPECT_EQ(f.process(action_request(action::kTerminateJob)).kind(), ReconcileResult::Kind::Ok);
  EXPECT_EQ(f.job_phase(), "Terminating");
  f.take_writes();
  f.catch_up();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"update-status jobs ns1/job1 Terminated"});
  // A finished job stays finished: another sync writes its (unchanged) status again and no pod.
  f.catch_up();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"update-status jobs ns1/job1 Terminated"});
}

TEST(JobProcessor, ResumeJobRestartsAnAbortedJob) {
  JobFixture f;
  run_job(f);
  f.process(action_request(action::kAbortJob));
  f.catch_up();
  f.process(JobFixture::sync());
  f.catch_up();
  ASSERT_EQ(f.job_phase(), "Aborted");
  f.take_writes();
  f.take_events();
  EXPECT_EQ(f.process(action_request(action::kResumeJob)).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_events(), {"Normal ExecuteAction: Start to execute action ResumeJob "});
  EXPECT_LINES(f.take_writes(), {"update-status jobs ns1/job1 Restarting"});
  EXPECT_EQ(f.job_status()["retryCount"], 1);
}

TEST(JobProcessor, RestartBeyondMaxRetryFailsTheJob) {
  JobFixture f;
  json job = with_policies(job_json("job1", {{"main", 2}}),
                           json::array({{{"event", "PodFailed"}, {"action", "RestartJob"}}}));
  job["spec"]["maxRetry"] = 1;
  run_job(f, job);
  f.set_pod_phase({"job1-main-0"}, "Failed", 1);
  f.process(pod_request("job1-main-0", "main", event::kPodFailed, 1));
  ASSERT_EQ(f.job_phase(), "Restarting");
  f.take_writes();
  f.catch_up();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {std::string("create podgroups ") + kPodGroup,
                                 "update-status jobs ns1/job1 Failed"});
}

// ---- A cache behind our own writes (the informers have not shown them yet) -------------------

// A job of `replicas` pods whose pods the last sync created; the informers have shown none of it
// unless the test catches up.
void create_pods(JobFixture& f, int replicas) {
  f.add_job(job_json("job1", {{"main", replicas}}));
  ASSERT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  f.set_podgroup_phase("job1", "Inqueue");
  ASSERT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  ASSERT_EQ(f.job_status()["pending"], replicas);
  f.take_writes();
  f.take_events();
}

// U1. Without the fix the second sync creates job1-main-1 and job1-main-2 again (AlreadyExists)
// and writes pending=1 with a new lastTransitionTime: the writes are not empty.
TEST(JobProcessor, SyncOnACacheLackingTheJustCreatedPodsNeitherCreatesNorRecountsThem) {
  JobFixture f;
  create_pods(f, 3);
  f.catch_up_lacking(kube::resources::pods, {"ns1/job1-main-1", "ns1/job1-main-2"});
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {});
  EXPECT_EQ(f.job_status()["pending"], 3);
  // Nor before the informer has shown any of them.
  JobFixture g;
  create_pods(g, 2);
  EXPECT_EQ(g.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(g.take_writes(), {});
}

// U2. Without the fix the kill deletes job1-main-0 only: job1-main-1 outlives the Abort, and the
// next sync moves the job to Aborted while it runs.
TEST(JobProcessor, AbortRightAfterCreatingPodsKillsThePodsTheCacheLacks) {
  JobFixture f;
  create_pods(f, 2);
  f.catch_up_lacking(kube::resources::pods, {"ns1/job1-main-1"});
  EXPECT_EQ(f.process(action_request(action::kAbortJob)).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"patch pods ns1/job1-main-0", "delete pods ns1/job1-main-0",
                                 "patch pods ns1/job1-main-1", "delete pods ns1/job1-main-1",
                                 "update-status jobs ns1/job1 Aborting",
                                 std::string("delete podgroups ") + kPodGroup});
  EXPECT_TRUE(f.pod_names().empty());
  // Until the informer shows the deletions the killed pods count as terminating.
  f.catch_up_lacking(kube::resources::pods, {"ns1/job1-main-0", "ns1/job1-main-1"});
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_EQ(f.job_phase(), "Aborting");
  EXPECT_EQ(f.job_status()["terminating"], 2);
  f.catch_up();
  f.take_writes();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"update-status jobs ns1/job1 Aborted"});
}

// U3. Without the fix there is no "delete podgroups" write: the PodGroup outlives the Abort.
TEST(JobProcessor, AbortRightAfterCreatingThePodGroupDeletesTheOneTheCacheLacks) {
  JobFixture f;
  f.add_job(job_json("job1", {{"main", 2}}));
  f.take_writes();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {std::string("create podgroups ") + kPodGroup,
                                 "update-status jobs ns1/job1 Pending"});
  EXPECT_EQ(f.process(action_request(action::kAbortJob)).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"update-status jobs ns1/job1 Aborting",
                                 std::string("delete podgroups ") + kPodGroup});
  EXPECT_FALSE(f.api.find(kube::resources::podgroups, kPodGroup));
  // Once the informers catch up the job drains to Aborted, with no PodGroup left to delete.
  f.catch_up();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"update-status jobs ns1/job1 Aborted"});
}

// A PodGroup of the job's name that is not the one we created is left alone.
TEST(JobProcessor, KillLeavesAPodGroupItDidNotCreateAlone) {
  JobFixture f;
  f.add_job(job_json("job1", {{"main", 2}}));
  f.process(JobFixture::sync());
  json pg = *f.api.find(kube::resources::podgroups, kPodGroup);
  f.api.erase(kube::resources::podgroups, kPodGroup);
  pg["metadata"]["uid"] = "someone-elses";
  f.api.put(kube::resources::podgroups, pg);
  f.take_writes();
  EXPECT_EQ(f.process(action_request(action::kAbortJob)).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(), {"update-status jobs ns1/job1 Aborting",
                                 std::string("delete podgroups ") + kPodGroup});
  EXPECT_TRUE(f.api.find(kube::resources::podgroups, kPodGroup)) << "the UID precondition held";
}

// U5. Task b waits for 2 ready pods of task a. Without the fix the gate reads the pod cache by
// name, where job1-a-0, deleted by the previous sync, is still Running and ready: b's pod is
// created ("create pods ns1/job1-b-0" among the writes).
TEST(JobProcessor, DependencyPodWeJustDeletedDoesNotOpenTheGate) {
  JobFixture f;
  json job = job_json("job1", {{"a", 2}, {"b", 1}});
  job["spec"]["tasks"][0]["minAvailable"] = 2;
  job["spec"]["tasks"][1]["dependsOn"] = {{"name", json::array({"a"})}};
  f.add_job(job);
  f.process(JobFixture::sync());
  f.set_podgroup_phase("job1", "Inqueue");
  ASSERT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  ASSERT_EQ(f.pod_names(), (std::vector<std::string>{"job1-a-0", "job1-a-1"}));
  // job1-a-0 runs but is marked out of sync (a kill's delete of it failed): the next sync deletes
  // it, and task b still waits (job1-a-1 is Pending).
  f.catch_up();
  json a0 = *f.api.find(kube::resources::pods, "ns1/job1-a-0");
  a0["status"]["phase"] = "Running";
  a0["metadata"]["annotations"]["volcano.sh/controller-out-of-sync"] = "true";
  f.api.put(kube::resources::pods, a0);
  f.catch_up();
  f.take_writes();
  ASSERT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_writes(),
               {"delete pods ns1/job1-a-0", "update-status jobs ns1/job1 Pending"});
  // job1-a-1 becomes ready; the informer has not shown job1-a-0's deletion yet.
  json a1 = *f.api.find(kube::resources::pods, "ns1/job1-a-1");
  a1["status"]["phase"] = "Running";
  f.api.put(kube::resources::pods, a1);
  f.catch_up_lacking(kube::resources::pods, {"ns1/job1-a-0"});
  ASSERT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  for (const std::string& write : f.take_writes()) {
    EXPECT_EQ(write.find("create pods"), std::string::npos) << write;
  }
  EXPECT_EQ(f.pod_names(), (std::vector<std::string>{"job1-a-1"}));
}

json job_with_claim() {
  json job = job_json("job1", {{"main", 1}});
  job["spec"]["volumes"] = json::array({{{"mountPath", "/data"},
                                         {"volumeClaim",
                                          {{"accessModes", json::array({"ReadWriteOnce"})},
                                           {"resources", {{"requests", {{"storage", "1Gi"}}}}}}}}});
  return job;
}

constexpr const char* kClaim = "ns1/job1-pvc-r1";  // the fixture's first random name is "r1"

// U4. Without the fix the second sync fails with "pvc job1-pvc-r1 is not found, ..." and a
// Warning PVCError event.
TEST(JobProcessor, SyncOnACacheLackingTheJustCreatedClaimGoesOn) {
  JobFixture f;
  f.add_job(job_with_claim());
  ASSERT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  ASSERT_TRUE(f.api.find(kube::resources::persistentvolumeclaims, kClaim));
  f.catch_up_lacking(kube::resources::persistentvolumeclaims, {kClaim});
  f.take_writes();
  f.take_events();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_events(), {});
  EXPECT_LINES(f.take_writes(), {});
  EXPECT_EQ(f.job_status()["controlledResources"]["volume-pvc-job1-pvc-r1"], "job1-pvc-r1");
}

// U4. The claim's name is recorded in the job before the claim is created; without the fix a
// failed create is never retried and every later sync reports the claim missing.
TEST(JobProcessor, ClaimWhoseCreateFailedIsCreatedOnTheNextSync) {
  JobFixture f;
  f.add_job(job_with_claim());
  f.api.fail_next("create", kube::resources::persistentvolumeclaims, "ns1/*",
                  vc::testing::api_error(kube::ErrorKind::Forbidden, "quota exceeded"));
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Error);
  EXPECT_FALSE(f.api.find(kube::resources::persistentvolumeclaims, kClaim));
  f.catch_up();
  f.take_writes();
  f.take_events();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  EXPECT_LINES(f.take_events(), {});
  EXPECT_LINES(f.take_writes(), {std::string("create persistentvolumeclaims ") + kClaim,
                                 "update-status jobs ns1/job1 Pending"});
  EXPECT_TRUE(f.api.find(kube::resources::persistentvolumeclaims, kClaim));
}

// A claim the user named is never created by the controller: the job waits for it.
TEST(JobProcessor, MissingClaimTheUserNamedIsReported) {
  JobFixture f;
  json job = job_json("job1", {{"main", 1}});
  job["spec"]["volumes"] = json::array({{{"mountPath", "/data"}, {"volumeClaimName", "mine"}}});
  f.add_job(job);
  f.take_writes();
  EXPECT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Error);
  EXPECT_LINES(f.take_writes(), {std::string("create podgroups ") + kPodGroup,
                                 "update-status jobs ns1/job1 Pending"});
  EXPECT_LINES(f.take_events(),
               {"Warning PVCError: Failed to create PVC, err: pvc mine is not found, the job will "
                "be in the Pending state until the PVC is created"});
}

}  // namespace
}  // namespace vc::controllers::job
