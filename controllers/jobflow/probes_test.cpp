// JobFlow probes on plain data (probes.h): the rule per entry kind, completed targets, targets
// without a probed task, the checks asked for, the pods a check reaches, and plan_sync with the
// flag off (probes ignored, as in Volcano) and on.
#include "controllers/jobflow/probes.h"

#include <memory>

#include <gtest/gtest.h>

#include "controllers/jobflow/plan.h"

namespace vc::controllers::jobflow {
namespace {

using nlohmann::json;

// A target Job "flow-<name>" with one task of `replicas` and its pods' phase counts.
std::shared_ptr<volcano::Job> target(const std::string& name, const std::string& phase,
                                     const std::string& task = "srv", int replicas = 2,
                                     volcano::TaskPhaseCounts counts = {}) {
  auto j = std::make_shared<volcano::Job>();
  j->name = "flow-" + name;
  j->namespace_ = "ml";
  j->status.phase = phase;
  volcano::TaskSpec t;
  t.name = task;
  t.replicas = replicas;
  j->spec.tasks.push_back(std::move(t));
  if (!counts.empty()) j->status.task_status_count[task] = counts;
  return j;
}

volcano::FlowDependsOn depends(std::vector<std::string> targets, volcano::FlowProbe probe) {
  return {.targets = std::move(targets), .probe = std::move(probe)};
}

volcano::FlowProbe tcp(const std::string& task, std::int64_t port) {
  volcano::FlowProbe p;
  p.tcp_socket_list.push_back({.task_name = task, .port = port});
  return p;
}

volcano::FlowProbe task_status(const std::string& task, const std::string& phase) {
  volcano::FlowProbe p;
  p.task_status_list.push_back({.task_name = task, .phase = phase});
  return p;
}

ProbeCheck tcp_check(const std::string& job, const std::string& task, std::int64_t port) {
  ProbeCheck c;
  c.namespace_ = "ml";
  c.job = job;
  c.task = task;
  c.port = port;
  return c;
}

TEST(JobFlowProbes, AMissingTargetJobHoldsTheStep) {
  const auto v = probe_verdict("ml", depends({"a"}, tcp("srv", 80)), {}, {});
  EXPECT_FALSE(v.ready);
  EXPECT_TRUE(v.checks.empty());
  EXPECT_EQ(v.waiting_on, "target a has no Job yet");
}

TEST(JobFlowProbes, ATcpCheckIsAskedForThenPasses) {
  const auto a = target("a", "Running");
  const std::map<std::string, const volcano::Job*> jobs{{"a", a.get()}};
  const auto dep = depends({"a"}, tcp("srv", 8080));

  const auto unknown = probe_verdict("ml", dep, jobs, {});
  EXPECT_FALSE(unknown.ready);
  ASSERT_EQ(unknown.checks.size(), 1u);
  EXPECT_EQ(unknown.checks[0], tcp_check("flow-a", "srv", 8080));
  EXPECT_EQ(unknown.waiting_on, "tcpSocket ml/flow-a task srv port 8080 not checked yet");

  const std::string key = tcp_check("flow-a", "srv", 8080).key();
  const auto failed = probe_verdict("ml", dep, jobs, {{key, false}});
  EXPECT_FALSE(failed.ready);
  EXPECT_EQ(failed.checks.size(), 1u);
  EXPECT_EQ(failed.waiting_on, "tcpSocket ml/flow-a task srv port 8080 failed");

  const auto passed = probe_verdict("ml", dep, jobs, {{key, true}});
  EXPECT_TRUE(passed.ready);
  EXPECT_TRUE(passed.checks.empty());
  EXPECT_EQ(passed.waiting_on, "");
}

TEST(JobFlowProbes, ACompletedTargetSatisfiesEveryEntryOnIt) {
  const auto a = target("a", "Completed");
  const std::map<std::string, const volcano::Job*> jobs{{"a", a.get()}};
  volcano::FlowProbe probe = tcp("srv", 1);
  probe.http_get_list.push_back(
      {.task_name = "srv", .path = "/ready", .port = 1, .http_header = {}});
  probe.task_status_list.push_back({.task_name = "srv", .phase = "Running"});
  const auto v = probe_verdict("ml", depends({"a"}, probe), jobs, {});
  EXPECT_TRUE(v.ready) << v.waiting_on;
  EXPECT_TRUE(v.checks.empty());
}

TEST(JobFlowProbes, TaskStatusNeedsEveryReplicaInThePhase) {
  const volcano::FlowProbe probe = task_status("srv", "Running");
  const auto one = target("a", "Running", "srv", 2, {{"Running", 1}, {"Pending", 1}});
  const auto both = target("a", "Running", "srv", 2, {{"Running", 2}});
  EXPECT_FALSE(probe_verdict("ml", depends({"a"}, probe), {{"a", one.get()}}, {}).ready);
  const auto v = probe_verdict("ml", depends({"a"}, probe), {{"a", one.get()}}, {});
  EXPECT_EQ(v.waiting_on, "task srv of Job flow-a is not all Running");
  EXPECT_TRUE(v.checks.empty());  // no network check: Job updates wake the flow
  EXPECT_TRUE(probe_verdict("ml", depends({"a"}, probe), {{"a", both.get()}}, {}).ready);
  // A task of 0 replicas needs one pod all the same.
  const auto none = target("a", "Running", "srv", 0, {{"Pending", 1}});
  EXPECT_FALSE(probe_verdict("ml", depends({"a"}, probe), {{"a", none.get()}}, {}).ready);
}

TEST(JobFlowProbes, AnEntryWhoseTaskNoTargetHasNeverPasses) {
  const auto a = target("a", "Running", "other");
  const auto v = probe_verdict("ml", depends({"a"}, tcp("srv", 80)), {{"a", a.get()}}, {});
  EXPECT_FALSE(v.ready);
  // a has none of the probed tasks, so it must complete first.
  EXPECT_EQ(v.waiting_on, "target Job flow-a has no probed task and is not Completed");
  const auto done = target("a", "Completed", "other");
  const auto w = probe_verdict("ml", depends({"a"}, tcp("srv", 80)), {{"a", done.get()}}, {});
  EXPECT_FALSE(w.ready);
  EXPECT_EQ(w.waiting_on, "no target Job has task srv");
}

TEST(JobFlowProbes, ATargetWithoutAProbedTaskMustComplete) {
  const auto a = target("a", "Running", "srv");
  const auto b = target("b", "Running", "prep");
  const std::string key = tcp_check("flow-a", "srv", 80).key();
  const auto dep = depends({"a", "b"}, tcp("srv", 80));
  EXPECT_FALSE(probe_verdict("ml", dep, {{"a", a.get()}, {"b", b.get()}}, {{key, true}}).ready);
  const auto b_done = target("b", "Completed", "prep");
  EXPECT_TRUE(probe_verdict("ml", dep, {{"a", a.get()}, {"b", b_done.get()}}, {{key, true}}).ready);
}

TEST(JobFlowProbes, EveryTargetWithTheTaskIsChecked) {
  const auto a = target("a", "Running");
  const auto b = target("b", "Running");
  volcano::FlowProbe probe;
  probe.http_get_list.push_back({.task_name = "srv",
                                 .path = "/ready",
                                 .port = 8080,
                                 .http_header = {.name = "X-Probe", .value = "1"}});
  const auto v =
      probe_verdict("ml", depends({"a", "b"}, probe), {{"a", a.get()}, {"b", b.get()}}, {});
  ASSERT_EQ(v.checks.size(), 2u);
  EXPECT_EQ(v.checks[0].job, "flow-a");
  EXPECT_EQ(v.checks[1].job, "flow-b");
  EXPECT_EQ(v.checks[0].kind, ProbeCheck::Kind::kHttpGet);
  EXPECT_EQ(v.checks[0].path, "/ready");
  EXPECT_EQ(v.checks[0].header.name, "X-Probe");
  EXPECT_EQ(v.checks[0].describe(), "httpGet ml/flow-a task srv port 8080 path /ready");
  // One passing target is not enough.
  const auto half = probe_verdict("ml", depends({"a", "b"}, probe),
                                  {{"a", a.get()}, {"b", b.get()}}, {{v.checks[0].key(), true}});
  EXPECT_FALSE(half.ready);
  ASSERT_EQ(half.checks.size(), 1u);
  EXPECT_EQ(half.checks[0].job, "flow-b");
}

TEST(JobFlowProbes, CheckKeysKeepTheirPartsApart) {
  ProbeCheck a = tcp_check("x", "y-z", 1);
  ProbeCheck b = tcp_check("x-y", "z", 1);
  EXPECT_NE(a.key(), b.key());
  ProbeCheck h = a;
  h.kind = ProbeCheck::Kind::kHttpGet;
  EXPECT_NE(a.key(), h.key());
  h.header = {.name = "A", .value = "b"};
  ProbeCheck h2 = h;
  h2.header = {.name = "Ab", .value = ""};
  EXPECT_NE(h.key(), h2.key());
}

TEST(JobFlowProbes, EndpointsAreTheRunningPodsIps) {
  const json list = {
      {"items",
       {{{"metadata", {{"name", "p0"}}}, {"status", {{"phase", "Running"}, {"podIP", "10.0.0.1"}}}},
        {{"metadata", {{"name", "p1"}}}, {"status", {{"phase", "Running"}, {"podIP", "10.0.0.2"}}}},
        {{"metadata", {{"name", "p2"}, {"deletionTimestamp", "2026-01-01T00:00:00Z"}}},
         {"status", {{"phase", "Failed"}}}}}}};
  const auto e = probe_endpoints(list);
  EXPECT_EQ(e.error, "");
  EXPECT_EQ(e.ips, (std::vector<std::string>{"10.0.0.1", "10.0.0.2"}));
}

TEST(JobFlowProbes, EndpointsFailOnAPodNotReady) {
  EXPECT_EQ(probe_endpoints(json{{"items", json::array()}}).error, "the task has no pods");
  EXPECT_EQ(probe_endpoints(json::object()).error, "the task has no pods");
  EXPECT_EQ(
      probe_endpoints(
          json{{"items", {{{"metadata", {{"name", "p0"}}}, {"status", {{"phase", "Pending"}}}}}}})
          .error,
      "pod p0 is Pending");
  EXPECT_EQ(
      probe_endpoints(
          json{{"items", {{{"metadata", {{"name", "p0"}}}, {"status", {{"phase", "Running"}}}}}}})
          .error,
      "pod p0 has no IP");
  // Mistyped members read as unset, never a throw.
  const auto odd =
      probe_endpoints(json{{"items", {{{"metadata", 3}, {"status", {{"phase", 7}}}}}}});
  EXPECT_EQ(odd.error, "pod (unnamed) is without a phase");
  // hostNetwork pods on one node share its IP: probed once.
  const json shared = {
      {"items",
       {{{"metadata", {{"name", "a"}}}, {"status", {{"phase", "Running"}, {"podIP", "127.0.0.1"}}}},
        {{"metadata", {{"name", "b"}}},
         {"status", {{"phase", "Running"}, {"podIP", "127.0.0.1"}}}}}}};
  EXPECT_EQ(probe_endpoints(shared).ips, std::vector<std::string>{"127.0.0.1"});
}

TEST(JobFlowProbes, PodSelector) {
  EXPECT_EQ(probe_pod_selector(tcp_check("flow-a", "srv", 1)),
            "volcano.sh/job-name=flow-a,volcano.sh/task-spec=srv");
}

// plan_sync: a flow "flow" with server a and client b after a, b probing a's task srv.
struct ProbedFlow {
  volcano::JobFlow jf;
  std::shared_ptr<volcano::Job> a = target("a", "Running");
  JobTemplateView ta, tb;
  ProbedFlow() {
    json doc = {
        {"metadata", {{"name", "flow"}, {"namespace", "ml"}, {"uid", "u"}}},
        {"spec",
         {{"flows",
           json::array(
               {{{"name", "a"}},
                {{"name", "b"},
                 {"dependsOn",
                  {{"targets", {"a"}},
                   {"probe", {{"tcpSocketList", {{{"taskName", "srv"}, {"port", 8080}}}}}}}}}})}}},
        {"status", {{"state", {{"phase", "Running"}}}}}};
    volcano::decode_job_flow(doc, jf);
    ta.name = "a";
    tb.name = "b";
  }
  Snapshot snapshot(bool probes, ProbeResults results = {}) const {
    Snapshot s;
    s.flow = &jf;
    s.jobs_by_name[a->name] = a.get();
    s.flow_jobs.push_back(a.get());
    s.templates["a"] = &ta;
    s.templates["b"] = &tb;
    s.probes = probes;
    s.probe_results = std::move(results);
    return s;
  }
};

TEST(JobFlowProbes, PlanIgnoresProbesWhenTheFlagIsOff) {
  const ProbedFlow f;
  const Plan p = plan_sync(f.snapshot(false, {{tcp_check("flow-a", "srv", 8080).key(), true}}));
  EXPECT_TRUE(p.creates.empty());  // a is Running, not Completed: Volcano's rule
  EXPECT_TRUE(p.probe_checks.empty());
  EXPECT_TRUE(p.probe_waits.empty());
}

TEST(JobFlowProbes, PlanWaitsOnTheCheckThenCreatesTheStep) {
  const ProbedFlow f;
  const Plan waiting = plan_sync(f.snapshot(true));
  EXPECT_TRUE(waiting.creates.empty());
  EXPECT_EQ(waiting.probe_checks, std::vector<ProbeCheck>{tcp_check("flow-a", "srv", 8080)});
  EXPECT_EQ(waiting.probe_waits,
            std::vector<std::string>{"b: tcpSocket ml/flow-a task srv port 8080 not checked yet"});

  const Plan ready = plan_sync(f.snapshot(true, {{tcp_check("flow-a", "srv", 8080).key(), true}}));
  ASSERT_EQ(ready.creates.size(), 1u);
  EXPECT_EQ(ready.creates[0].name, "flow-b");
  EXPECT_TRUE(ready.probe_checks.empty());
  EXPECT_TRUE(ready.probe_waits.empty());
}

TEST(JobFlowProbes, AnEmptyProbeKeepsTheCompletionRule) {
  ProbedFlow f;
  f.jf.spec.flows[1].depends_on->probe = volcano::FlowProbe{};
  EXPECT_TRUE(plan_sync(f.snapshot(true)).creates.empty());
  f.a->status.phase = "Completed";
  EXPECT_EQ(plan_sync(f.snapshot(true)).creates.size(), 1u);
}

}  // namespace
}  // namespace vc::controllers::jobflow
