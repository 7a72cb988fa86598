#include "controllers/job/state/delayed_actions.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>

#include <gtest/gtest.h>

namespace vc::controllers::job {
namespace {

using std::chrono::seconds;
using TimePoint = DelayedActions::TimePoint;

const TimePoint kT0{};

Request req_for(std::string pod, std::string event, std::string pod_uid = "uid-1",
                std::string task = "worker", std::string job = "j") {
  Request r;
  r.namespace_ = "ns";
  r.job_name = std::move(job);
  r.task_name = std::move(task);
  r.pod_name = std::move(pod);
  r.pod_uid = std::move(pod_uid);
  r.event = std::move(event);
  return r;
}

std::vector<std::string> actions_of(const std::vector<DelayedAction>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.request.pod_name + ":" + e.action);
  return out;
}

TEST(DelayedActions, AddArmsAndPopReturnsWhenDue) {
  DelayedActions d;
  EXPECT_FALSE(d.next_due().has_value());
  EXPECT_TRUE(d.add(req_for("p0", "PodFailed"), "RestartJob", kT0 + seconds(5)));
  EXPECT_EQ(d.size(), 1u);
  EXPECT_EQ(d.next_due(), kT0 + seconds(5));
  EXPECT_TRUE(d.pop_due(kT0 + seconds(4)).empty());
  auto due = d.pop_due(kT0 + seconds(5));
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].action, "RestartJob");
  EXPECT_EQ(due[0].request.pod_name, "p0");
  EXPECT_EQ(due[0].request.event, "PodFailed");
  EXPECT_EQ(d.size(), 0u);
  EXPECT_FALSE(d.next_due().has_value());
}

TEST(DelayedActions, SameActionForSamePodIsIgnoredAndKeepsItsDueTime) {
  DelayedActions d;
  EXPECT_TRUE(d.add(req_for("p0", "PodPending"), "RestartPod", kT0 + seconds(5)));
  EXPECT_FALSE(d.add(req_for("p0", "PodPending", "uid-2"), "RestartPod", kT0 + seconds(50)));
  EXPECT_EQ(d.size(), 1u);
  EXPECT_EQ(d.next_due(), kT0 + seconds(5));
  auto due = d.pop_due(kT0 + seconds(5));
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].request.pod_uid, "uid-1");
}

TEST(DelayedActions, DifferentActionReplacesAndTheOldOneNeverFires) {
  DelayedActions d;
  EXPECT_TRUE(d.add(req_for("p0", "PodPending"), "RestartPod", kT0 + seconds(5)));
  EXPECT_TRUE(d.add(req_for("p0", "PodFailed"), "AbortJob", kT0 + seconds(10)));
  EXPECT_EQ(d.size(), 1u);
  EXPECT_EQ(d.next_due(), kT0 + seconds(10));
  EXPECT_TRUE(d.pop_due(kT0 + seconds(9)).empty());
  EXPECT_EQ(actions_of(d.pop_due(kT0 + seconds(10))), std::vector<std::string>{"p0:AbortJob"});
}

TEST(DelayedActions, SlotsArePerJobAndPod) {
  DelayedActions d;
  EXPECT_TRUE(d.add(req_for("p0", "PodFailed"), "RestartJob", kT0 + seconds(1)));
  EXPECT_TRUE(d.add(req_for("p1", "PodFailed"), "RestartJob", kT0 + seconds(1)));
  EXPECT_TRUE(d.add(req_for("p0", "PodFailed", "uid-1", "worker", "other"), "RestartJob",
                    kT0 + seconds(1)));
  EXPECT_TRUE(d.add(req_for("", "Unknown"), "RestartJob", kT0 + seconds(1)));
  EXPECT_EQ(d.size(), 4u);
}

TEST(DelayedActions, PopOrdersByDueThenByAddOrder) {
  DelayedActions d;
  d.add(req_for("late", "PodFailed"), "RestartJob", kT0 + seconds(3));
  d.add(req_for("b", "PodFailed"), "RestartJob", kT0 + seconds(1));
  d.add(req_for("a", "PodFailed"), "RestartJob", kT0 + seconds(1));
  d.add(req_for("first", "PodFailed"), "RestartJob", kT0 + seconds(0));
  auto due = d.pop_due(kT0 + seconds(2));
  EXPECT_EQ(actions_of(due),
            (std::vector<std::string>{"first:RestartJob", "b:RestartJob", "a:RestartJob"}));
  EXPECT_LT(due[1].id, due[2].id);
  EXPECT_EQ(d.size(), 1u);
  EXPECT_EQ(d.next_due(), kT0 + seconds(3));
}

TEST(DelayedActions, PoppedSlotCanBeArmedAgain) {
  DelayedActions d;
  d.add(req_for("p0", "PodPending"), "RestartPod", kT0 + seconds(1));
  ASSERT_EQ(d.pop_due(kT0 + seconds(1)).size(), 1u);
  EXPECT_TRUE(d.add(req_for("p0", "PodPending"), "RestartPod", kT0 + seconds(2)));
}

TEST(DelayedActionsCancelForPodEvent, PodLeavingPendingCancelsOnlyForTheSameUid) {
  DelayedActions d;
  d.add(req_for("p0", "PodPending", "uid-1"), "RestartPod", kT0 + seconds(5));
  EXPECT_TRUE(d.cancel_for_pod_event(req_for("p0", "PodRunning", "uid-2")).empty());
  EXPECT_TRUE(d.cancel_for_pod_event(req_for("p0", "PodEvicted", "uid-2")).empty());
  EXPECT_EQ(d.size(), 1u);
  EXPECT_EQ(actions_of(d.cancel_for_pod_event(req_for("p0", "PodFailed", "uid-1"))),
            std::vector<std::string>{"p0:RestartPod"});
  EXPECT_EQ(d.size(), 0u);
  EXPECT_FALSE(d.next_due().has_value());
}

TEST(DelayedActionsCancelForPodEvent, PodPendingEventCancelsNothing) {
  DelayedActions d;
  d.add(req_for("p0", "PodPending", "uid-1"), "RestartPod", kT0 + seconds(5));
  EXPECT_TRUE(d.cancel_for_pod_event(req_for("p0", "PodPending", "uid-1")).empty());
  EXPECT_EQ(d.size(), 1u);
}

TEST(DelayedActionsCancelForPodEvent, RunningCancelsFailedOrEvictedTimersByNameOnly) {
  for (const char* armed_by : {"PodFailed", "PodEvicted"}) {
    DelayedActions d;
    d.add(req_for("p0", armed_by, "uid-1"), "RestartJob", kT0 + seconds(5));
    EXPECT_TRUE(d.cancel_for_pod_event(req_for("p0", "PodFailed", "uid-1")).empty()) << armed_by;
    EXPECT_TRUE(d.cancel_for_pod_event(req_for("p0", "PodEvicted", "uid-1")).empty()) << armed_by;
    EXPECT_EQ(d.cancel_for_pod_event(req_for("p0", "PodRunning", "uid-9")).size(), 1u) << armed_by;
    EXPECT_EQ(d.size(), 0u);
  }
}

TEST(DelayedActionsCancelForPodEvent, NonPodEventsCancelNothing) {
  DelayedActions d;
  d.add(req_for("p0", "PodPending", "uid-1"), "RestartPod", kT0 + seconds(5));
  d.add(req_for("p1", "PodFailed", "uid-1"), "RestartPod", kT0 + seconds(5));
  for (const char* e : {"OutOfSync", "TaskFailed", "TaskCompleted", ""}) {
    EXPECT_TRUE(d.cancel_for_pod_event(req_for("p0", e, "uid-1")).empty()) << e;
  }
  EXPECT_EQ(d.size(), 2u);
}

TEST(DelayedActionsCancelForPodEvent, OtherPodsAndJobsAreUntouched) {
  DelayedActions d;
  d.add(req_for("p0", "PodFailed"), "RestartJob", kT0 + seconds(5));
  EXPECT_TRUE(d.cancel_for_pod_event(req_for("p1", "PodRunning")).empty());
  EXPECT_TRUE(
      d.cancel_for_pod_event(req_for("p0", "PodRunning", "uid-1", "worker", "other")).empty());
  EXPECT_EQ(d.size(), 1u);
}

TEST(DelayedActionsCancelSameType, JobTypeCancelsEveryJobTypeEntryOfTheJob) {
  DelayedActions d;
  d.add(req_for("p0", "PodFailed"), "RestartJob", kT0 + seconds(5));
  d.add(req_for("p1", "PodEvicted"), "AbortJob", kT0 + seconds(5));
  d.add(req_for("", "Unknown"), "Mystery", kT0 + seconds(5));  // unknown actions are job type
  d.add(req_for("p2", "PodFailed"), "RestartPod", kT0 + seconds(5));
  d.add(req_for("p0", "PodFailed", "uid-1", "worker", "other"), "RestartJob", kT0 + seconds(5));
  auto removed = d.cancel_same_type(req_for("p9", "PodFailed"), "TerminateJob");
  auto names = actions_of(removed);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{":Mystery", "p0:RestartJob", "p1:AbortJob"}));
  EXPECT_EQ(d.size(), 2u);
}

TEST(DelayedActionsCancelSameType, TaskTypeCancelsOnlyTheSameTask) {
  DelayedActions d;
  d.add(req_for("p0", "PodFailed", "u", "worker"), "RestartTask", kT0 + seconds(5));
  d.add(req_for("p1", "PodFailed", "u", "ps"), "RestartTask", kT0 + seconds(5));
  d.add(req_for("p2", "PodFailed", "u", "worker"), "RestartJob", kT0 + seconds(5));
  EXPECT_EQ(
      actions_of(d.cancel_same_type(req_for("p7", "PodFailed", "u", "worker"), "RestartTask")),
      std::vector<std::string>{"p0:RestartTask"});
  EXPECT_EQ(d.size(), 2u);
}

TEST(DelayedActionsCancelSameType, PodTypeCancelsOnlyTheSamePod) {
  DelayedActions d;
  d.add(req_for("p0", "PodFailed"), "RestartPod", kT0 + seconds(5));
  d.add(req_for("p1", "PodFailed"), "RestartPod", kT0 + seconds(5));
  EXPECT_EQ(actions_of(d.cancel_same_type(req_for("p1", "PodFailed"), "RestartPod")),
            std::vector<std::string>{"p1:RestartPod"});
  EXPECT_EQ(d.size(), 1u);
}

TEST(DelayedActionsCancelSameType, PartitionTypeCancelsOnlyTheSamePartition) {
  DelayedActions d;
  Request a = req_for("p0", "PodFailed");
  a.partition_id = "0";
  Request b = req_for("p1", "PodFailed");
  b.partition_id = "1";
  d.add(a, "RestartPartition", kT0 + seconds(5));
  d.add(b, "RestartPartition", kT0 + seconds(5));
  Request executed = req_for("p3", "PodFailed");
  executed.partition_id = "1";
  EXPECT_EQ(actions_of(d.cancel_same_type(executed, "RestartPartition")),
            std::vector<std::string>{"p1:RestartPartition"});
  EXPECT_EQ(d.size(), 1u);
}

TEST(DelayedActions, ForgetJobDropsOnlyThatJob) {
  DelayedActions d;
  d.add(req_for("p0", "PodFailed"), "RestartJob", kT0 + seconds(1));
  d.add(req_for("", "Unknown"), "AbortJob", kT0 + seconds(2));
  d.add(req_for("p0", "PodFailed", "u", "worker", "j2"), "RestartJob", kT0 + seconds(3));
  d.add(req_for("p0", "PodFailed", "u", "worker", "j-suffix"), "RestartJob", kT0 + seconds(4));
  d.forget_job("ns/j");
  EXPECT_EQ(d.size(), 2u);
  EXPECT_EQ(d.next_due(), kT0 + seconds(3));
  EXPECT_EQ(d.pop_due(kT0 + seconds(10)).size(), 2u);
}

TEST(DelayedActions, ConcurrentAddsAndPopsLoseNothing) {
  DelayedActions d;
  constexpr int kThreads = 4;
  constexpr int kPerThread = 200;
  std::vector<std::thread> threads;
  std::atomic<int> popped{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        d.add(req_for("p" + std::to_string(i), "PodFailed", "u", "w", "j" + std::to_string(t)),
              "RestartJob", kT0 + seconds(i % 7));
        if (i % 10 == 0) popped += static_cast<int>(d.pop_due(kT0 + seconds(2)).size());
      }
    });
  }
  for (auto& th : threads) th.join();
  popped += static_cast<int>(d.pop_due(kT0 + seconds(100)).size());
  EXPECT_EQ(popped.load(), kThreads * kPerThread);
  EXPECT_EQ(d.size(), 0u);
}

}  // namespace
}  // namespace vc::controllers::job
