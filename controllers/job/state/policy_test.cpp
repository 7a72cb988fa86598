#include "controllers/job/state/policy.h"

#include <gtest/gtest.h>

namespace vc::controllers::job {
namespace {

using std::chrono::milliseconds;

LifecyclePolicy on_events(std::vector<std::string> events, std::string action,
                          std::optional<milliseconds> timeout = std::nullopt) {
  LifecyclePolicy p;
  p.events = std::move(events);
  p.action = std::move(action);
  p.timeout = timeout;
  return p;
}

LifecyclePolicy on_exit_code(std::int32_t code, std::string action) {
  LifecyclePolicy p;
  p.exit_code = code;
  p.action = std::move(action);
  return p;
}

Job job_with(std::vector<LifecyclePolicy> job_policies,
             std::vector<LifecyclePolicy> task_policies = {}) {
  Job job;
  job.namespace_ = "ns";
  job.name = "j";
  job.uid = "job-uid";
  TaskSpec t;
  t.name = "worker";
  t.replicas = 2;
  t.policies = std::move(task_policies);
  job.spec.tasks.push_back(t);
  job.spec.policies = std::move(job_policies);
  return job;
}

Request pod_request(std::string event, std::int32_t exit_code = 0) {
  Request r;
  r.namespace_ = "ns";
  r.job_name = "j";
  r.job_uid = "job-uid";
  r.task_name = "worker";
  r.pod_name = "j-worker-0";
  r.event = std::move(event);
  r.exit_code = exit_code;
  return r;
}

const PolicyDecision kSync{"SyncJob", milliseconds{0}};

TEST(ApplyPolicies, NothingMatchedIsSyncJob) {
  EXPECT_EQ(apply_policies(job_with({}), pod_request("PodFailed")), kSync);
}

TEST(ApplyPolicies, CommandActionWinsOverEverything) {
  Job job = job_with({on_events({"*"}, "AbortJob")});
  job.status.version = 9;
  Request req = pod_request("CommandIssued");
  req.action = "ResumeJob";
  req.job_uid = "someone-else";
  EXPECT_EQ(apply_policies(job, req), (PolicyDecision{"ResumeJob", milliseconds{0}}));
}

TEST(ApplyPolicies, InternalEventsAlwaysSync) {
  Job job = job_with({on_events({"*"}, "AbortJob")});
  for (const char* e : {"OutOfSync", "CommandIssued", "PodRunning"}) {
    EXPECT_EQ(apply_policies(job, pod_request(e)), kSync) << e;
  }
}

TEST(ApplyPolicies, PodOfAnotherJobUidSyncs) {
  Job job = job_with({on_events({"PodFailed"}, "RestartJob")});
  Request req = pod_request("PodFailed");
  req.job_uid = "old-uid";
  EXPECT_EQ(apply_policies(job, req), kSync);
  req.job_uid = "";  // PodGroup and job requests carry no UID: not a mismatch
  EXPECT_EQ(apply_policies(job, req).action, "RestartJob");
}

TEST(ApplyPolicies, OutdatedJobVersionSyncs) {
  Job job = job_with({on_events({"Unknown"}, "RestartJob")});
  job.status.version = 1;
  Request req;
  req.namespace_ = "ns";
  req.job_name = "j";
  req.event = "Unknown";  // a PodGroup request: JobVersion 0
  EXPECT_EQ(apply_policies(job, req), kSync);
  job.status.version = 0;
  EXPECT_EQ(apply_policies(job, req).action, "RestartJob");
}

TEST(ApplyPolicies, TaskPoliciesComeBeforeJobPolicies) {
  Job job =
      job_with({on_events({"PodFailed"}, "AbortJob")}, {on_events({"PodFailed"}, "RestartTask")});
  EXPECT_EQ(apply_policies(job, pod_request("PodFailed")).action, "RestartTask");
}

TEST(ApplyPolicies, JobPoliciesApplyWhenNoTaskPolicyMatches) {
  Job job = job_with({on_events({"PodEvicted"}, "RestartJob")},
                     {on_events({"PodFailed"}, "RestartTask")});
  EXPECT_EQ(apply_policies(job, pod_request("PodEvicted")).action, "RestartJob");
}

TEST(ApplyPolicies, UnknownTaskFallsThroughToJobPolicies) {
  Job job =
      job_with({on_events({"PodFailed"}, "AbortJob")}, {on_events({"PodFailed"}, "RestartTask")});
  Request req = pod_request("PodFailed");
  req.task_name = "ps";
  EXPECT_EQ(apply_policies(job, req).action, "AbortJob");
}

TEST(ApplyPolicies, FirstMatchingPolicyInOrderWins) {
  Job job = job_with({on_events({"PodEvicted"}, "RestartJob"),
                      on_events({"PodFailed", "PodEvicted"}, "AbortJob"),
                      on_events({"PodFailed"}, "TerminateJob")});
  EXPECT_EQ(apply_policies(job, pod_request("PodFailed")).action, "AbortJob");
}

TEST(ApplyPolicies, WildcardMatchesAnyNonEmptyEvent) {
  Job job = job_with({on_events({"*"}, "AbortJob")});
  for (const char* e : {"PodFailed", "PodEvicted", "Unknown", "TaskCompleted", "TaskFailed"}) {
    EXPECT_EQ(apply_policies(job, pod_request(e)).action, "AbortJob") << e;
  }
  // PodGroup phase changes other than Unknown carry no event and match no event policy.
  EXPECT_EQ(apply_policies(job, pod_request("")), kSync);
}

TEST(ApplyPolicies, PodPendingWithoutTimeoutIsSkipped) {
  Job job = job_with({on_events({"PodPending"}, "RestartJob"), on_events({"*"}, "AbortJob")});
  EXPECT_EQ(apply_policies(job, pod_request("PodPending")), kSync);
}

TEST(ApplyPolicies, PodPendingWithTimeoutIsDelayed) {
  Job job = job_with({on_events({"*"}, "RestartJob", milliseconds{300000})});
  EXPECT_EQ(apply_policies(job, pod_request("PodPending")),
            (PolicyDecision{"RestartJob", milliseconds{300000}}));
}

TEST(ApplyPolicies, ZeroTimeoutExecutesAtOnceEvenForPodPending) {
  Job job = job_with({on_events({"PodPending"}, "RestartPod", milliseconds{0})});
  EXPECT_EQ(apply_policies(job, pod_request("PodPending")),
            (PolicyDecision{"RestartPod", milliseconds{0}}));
}

TEST(ApplyPolicies, TimeoutOnOtherEventsBecomesTheDelay) {
  Job job = job_with({}, {on_events({"PodFailed"}, "RestartPod", milliseconds{1500})});
  EXPECT_EQ(apply_policies(job, pod_request("PodFailed")),
            (PolicyDecision{"RestartPod", milliseconds{1500}}));
}

TEST(ApplyPolicies, ExitCodeMatches) {
  Job job = job_with({}, {on_exit_code(3, "RestartTask")});
  EXPECT_EQ(apply_policies(job, pod_request("PodFailed", 2)), kSync);
  EXPECT_EQ(apply_policies(job, pod_request("PodFailed", 3)).action, "RestartTask");
}

TEST(ApplyPolicies, ExitCodeIsCheckedEvenForOtherEvents) {
  // Rejected by the webhook, but the controller compares it anyway: exit code 0 matches every
  // request without an exit code.
  Job job = job_with({on_exit_code(0, "AbortJob")});
  EXPECT_EQ(apply_policies(job, pod_request("PodEvicted")).action, "AbortJob");
}

TEST(ApplyPolicies, SkippedPodPendingMatchStillChecksExitCode) {
  LifecyclePolicy p = on_events({"PodPending"}, "RestartJob");
  p.exit_code = 0;
  Job job = job_with({p});
  EXPECT_EQ(apply_policies(job, pod_request("PodPending")).action, "RestartJob");
}

TEST(ApplyPolicies, ExitCodeTimeoutIsTheDelay) {
  LifecyclePolicy p = on_exit_code(7, "RestartJob");
  p.timeout = milliseconds{2000};
  Job job = job_with({p});
  EXPECT_EQ(apply_policies(job, pod_request("PodFailed", 7)),
            (PolicyDecision{"RestartJob", milliseconds{2000}}));
}

TEST(ApplyPolicies, EmptyEventListNeverMatchesAnEvent) {
  Job job = job_with({on_events({}, "AbortJob")});
  EXPECT_EQ(apply_policies(job, pod_request("PodFailed")), kSync);
}

TEST(PolicyHelpers, InternalActions) {
  for (const char* a : {"SyncJob", "EnqueueJob", "SyncQueue", "OpenQueue", "CloseQueue"}) {
    EXPECT_TRUE(is_internal_action(a)) << a;
  }
  for (const char* a : {"AbortJob", "RestartJob", "RestartTask", "ResumeJob", ""}) {
    EXPECT_FALSE(is_internal_action(a)) << a;
  }
}

TEST(PolicyHelpers, InternalAndPodEvents) {
  EXPECT_TRUE(is_internal_event("OutOfSync"));
  EXPECT_TRUE(is_internal_event("CommandIssued"));
  EXPECT_TRUE(is_internal_event("PodRunning"));
  EXPECT_FALSE(is_internal_event("PodFailed"));
  EXPECT_FALSE(is_internal_event(""));
  for (const char* e : {"PodPending", "PodRunning", "PodFailed", "PodEvicted"}) {
    EXPECT_TRUE(is_pod_event(e)) << e;
  }
  for (const char* e : {"OutOfSync", "TaskFailed", "TaskCompleted", "Unknown", ""}) {
    EXPECT_FALSE(is_pod_event(e)) << e;
  }
}

TEST(PolicyHelpers, ActionTypes) {
  EXPECT_EQ(action_type("RestartTask"), ActionType::Task);
  EXPECT_EQ(action_type("RestartPod"), ActionType::Pod);
  EXPECT_EQ(action_type("RestartPartition"), ActionType::Partition);
  for (const char* a :
       {"AbortJob", "RestartJob", "TerminateJob", "CompleteJob", "ResumeJob", "Whatever", ""}) {
    EXPECT_EQ(action_type(a), ActionType::Job) << a;
  }
}

TEST(IsPlainSync, PodEventsThatOnlySyncMergeIntoTheJobsOutOfSyncRequest) {
  // No policy applies: every pod event is a plain sync, so a burst of them can be one.
  Job job = job_with({on_events({"PodEvicted"}, "RestartJob")});
  for (const char* e : {"OutOfSync", "PodPending", "PodRunning", "PodFailed", "TaskCompleted"}) {
    EXPECT_TRUE(is_plain_sync(job, pod_request(e))) << e;
  }
  Request pg;  // a PodGroup phase change
  pg.namespace_ = "ns";
  pg.job_name = "j";
  EXPECT_TRUE(is_plain_sync(job, pg));
}

TEST(IsPlainSync, RequestsThatMayRunAnActionStayAsTheyAre) {
  Job job = job_with({on_events({"PodEvicted"}, "RestartJob")},
                     {on_exit_code(3, "AbortJob"), on_events({"TaskCompleted"}, "CompleteJob")});
  EXPECT_FALSE(is_plain_sync(job, pod_request("PodEvicted")));
  EXPECT_FALSE(is_plain_sync(job, pod_request("PodFailed", 3)));
  EXPECT_FALSE(is_plain_sync(job, pod_request("TaskCompleted")));
  EXPECT_TRUE(is_plain_sync(job, pod_request("PodFailed", 1)));
  Request command = pod_request("CommandIssued");
  command.action = "AbortJob";
  EXPECT_FALSE(is_plain_sync(job, command)) << "a command carries its action";
  // The cache may still hold an earlier job of this name: its policies do not speak for the
  // pod's own job, which may act on the event.
  Request other_job = pod_request("PodEvicted");
  other_job.job_uid = "newer-job-uid";
  EXPECT_FALSE(is_plain_sync(job, other_job));
  other_job.event = "PodRunning";
  EXPECT_FALSE(is_plain_sync(job, other_job));
}

TEST(IsPlainSync, NoMergingWhileTheJobHasAPolicyWithATimeout) {
  // A timeout policy may register a delayed action that a later pod event of the same pod must
  // cancel (PodRunning after PodFailed), so even internal events keep their pod.
  for (const Job& job :
       {job_with({on_events({"PodFailed"}, "RestartJob", milliseconds{5000})}),
        job_with({}, {on_events({"PodPending"}, "RestartTask", milliseconds{60000})})}) {
    EXPECT_FALSE(is_plain_sync(job, pod_request("PodRunning")));
    EXPECT_FALSE(is_plain_sync(job, pod_request("OutOfSync")));
  }
}

}  // namespace
}  // namespace vc::controllers::job
