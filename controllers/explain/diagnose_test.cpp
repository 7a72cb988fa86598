// diagnose() on plain snapshots: one per stop point the command must name.
#include "controllers/explain/diagnose.h"

#include <gtest/gtest.h>

#include <string>

#include "controllers/explain/cluster_room.h"
#include "controllers/explain/render.h"

namespace vc::controllers::explain {
namespace {

using nlohmann::json;

json node(const std::string& name, const std::string& cpu, json labels = json::object(),
          json taints = json::array()) {
  return {{"metadata", {{"name", name}, {"labels", labels}}},
          {"spec", {{"taints", taints}}},
          {"status",
           {{"allocatable", {{"cpu", cpu}, {"memory", "8Gi"}, {"pods", "110"}}},
            {"conditions", json::array({{{"type", "Ready"}, {"status", "True"}}})}}}};
}

json queue(const std::string& name, const std::string& state = "Open",
           json capability = json::object(), json allocated = json::object()) {
  return {{"metadata", {{"name", name}}},
          {"spec", {{"capability", capability}}},
          {"status", {{"state", state}, {"allocated", allocated}}}};
}

// A Job of `replicas` pods of one CPU each in queue q, gang minimum minAvailable.
json job(const std::string& phase, int replicas = 3, const std::string& q = "q") {
  return {{"metadata", {{"name", "ray"}, {"namespace", "ns"}, {"uid", "job-uid"}}},
          {"spec",
           {{"queue", q},
            {"minAvailable", replicas},
            {"maxRetry", 3},
            {"tasks", json::array({{{"name", "worker"},
                                    {"replicas", replicas},
                                    {"template", {{"spec", json::object()}}}}})}}},
          {"status", {{"state", {{"phase", phase}}}}}};
}

json podgroup(const std::string& phase, int min_member = 3, const std::string& q = "q") {
  return {{"metadata", {{"name", "ray-job-uid"}, {"namespace", "ns"}, {"uid", "pg-uid"}}},
          {"spec",
           {{"minMember", min_member},
            {"queue", q},
            {"minResources",
             {{"cpu", std::to_string(min_member)},
              {"pods", std::to_string(min_member)},
              {"count/pods", std::to_string(min_member)},
              {"requests.cpu", std::to_string(min_member)}}}}},
          {"status", {{"phase", phase}}}};
}

json pod(const std::string& name, const std::string& node_name, const std::string& phase,
         json spec_extra = json::object()) {
  json spec = {{"containers",
                json::array({{{"name", "main"}, {"resources", {{"requests", {{"cpu", "1"}}}}}}})}};
  if (!node_name.empty()) spec["nodeName"] = node_name;
  spec.update(spec_extra);
  return {{"metadata", {{"name", name}, {"namespace", "ns"}, {"uid", name + "-uid"}}},
          {"spec", spec},
          {"status", {{"phase", phase}}}};
}

Snapshot base(const std::string& job_phase, const std::string& pg_phase) {
  Snapshot s;
  s.namespace_ = "ns";
  s.name = "ray";
  s.job = job(job_phase);
  s.podgroup = podgroup(pg_phase);
  s.queues = {queue("root"), queue("q")};
  s.nodes = {node("n1", "2"), node("n2", "2")};
  return s;
}

const Link& stop_link(const Explanation& x) {
  EXPECT_GE(x.stop, 0) << render_text(x);
  return x.chain.at(static_cast<std::size_t>(std::max(x.stop, 0)));
}

// The verdict, the link the chain stopped at, and a part of its why.
void expect_stop(const Explanation& x, Verdict verdict, const std::string& link,
                 const std::string& why_part) {
  EXPECT_EQ(x.verdict, verdict) << render_text(x);
  const Link& l = stop_link(x);
  EXPECT_EQ(l.name, link) << render_text(x);
  EXPECT_NE(l.why.find(why_part), std::string::npos) << l.why;
}

bool any_contains(const std::vector<std::string>& lines, const std::string& part) {
  for (const auto& l : lines) {
    if (l.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(Diagnose, SeedCaseSecondGangWaitsForCapacityWithTheNumbers) {
  // Room for four one-CPU pods; the first gang runs three of them.
  Snapshot s = base("Pending", "Pending");
  s.node_pods = {pod("a-0", "n1", "Running"), pod("a-1", "n1", "Running"),
                 pod("a-2", "n2", "Running")};
  s.podgroup["status"]["conditions"] = json::array(
      {{{"type", "Unschedulable"},
        {"status", "True"},
        {"reason", "NotEnoughResources"},
        {"message", "3/3 tasks in gang unschedulable: pod group is not ready, 3 minAvailable"}}});
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::WaitingForCapacity) << render_text(x);
  const Link& l = stop_link(x);
  EXPECT_EQ(l.name, "Enqueue");
  EXPECT_EQ(l.state, LinkState::Waiting);
  EXPECT_NE(l.why.find("cpu: needs 3, has 1"), std::string::npos) << l.why;
  EXPECT_TRUE(any_contains(l.evidence, "free cpu: 1")) << render_text(x);
  EXPECT_TRUE(any_contains(l.evidence, "3/3 tasks in gang unschedulable")) << render_text(x);
  EXPECT_EQ(x.chain.back().name, "Running");
  EXPECT_EQ(x.chain.back().state, LinkState::NotReached);
  EXPECT_EQ(exit_code(x.verdict), 3);
}

TEST(Diagnose, ClosedQueueIsAConfigurationError) {
  Snapshot s = base("Pending", "Pending");
  s.queues = {queue("root"), queue("q", "Closed")};
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::ConfigurationError);
  EXPECT_EQ(stop_link(x).name, "Queue");
  EXPECT_NE(x.headline.find("queue q is Closed"), std::string::npos) << x.headline;
  EXPECT_EQ(exit_code(x.verdict), 4);
}

TEST(Diagnose, ClosedAncestorQueueStopsItsChildren) {
  Snapshot s = base("Pending", "Pending");
  json child = queue("q");
  child["spec"]["parent"] = "team";
  s.queues = {queue("root"), queue("team", "Closed"), child};
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::ConfigurationError);
  EXPECT_NE(x.headline.find("ancestor team is Closed"), std::string::npos) << x.headline;
}

TEST(Diagnose, QueueCapabilitySmallerThanTheGangNamesBoth) {
  Snapshot s = base("Pending", "Pending");
  s.queues = {queue("root"), queue("q", "Open", {{"cpu", "2"}})};
  expect_stop(diagnose(s), Verdict::ConfigurationError, "Queue", "cpu: needs 3, has 2");
}

TEST(Diagnose, QueueCapabilityUsedUpWaits) {
  Snapshot s = base("Pending", "Pending");
  s.queues = {queue("root"), queue("q", "Open", {{"cpu", "4"}}, {{"cpu", "3"}})};
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::WaitingForCapacity) << render_text(x);
  EXPECT_NE(stop_link(x).why.find("queue q has too little of its capability left"),
            std::string::npos);
}

TEST(Diagnose, MissingQueue) {
  Snapshot s = base("Pending", "Pending");
  s.queues = {queue("root")};
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::ConfigurationError);
  EXPECT_EQ(x.headline, "queue q does not exist");
}

TEST(Diagnose, GangLargerThanTheWholeCluster) {
  Snapshot s = base("Pending", "Pending");
  s.job = job("Pending", 5);
  s.podgroup = podgroup("Pending", 5);
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::ConfigurationError) << render_text(x);
  EXPECT_NE(x.headline.find("more than the nodes its pods may use have"), std::string::npos);
}

TEST(Diagnose, EnqueueCountsOnlyTheNodesTheJobsPodsMayUse) {
  Snapshot s = base("Pending", "Pending");
  s.nodes = {node("pool-0", "2", {{"pool", "a"}}), node("big", "64")};
  s.job["spec"]["tasks"][0]["template"]["spec"]["nodeSelector"] = {{"pool", "a"}};
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::ConfigurationError) << render_text(x);
  const Link& l = stop_link(x);
  EXPECT_NE(l.why.find("cpu: needs 3, has 2"), std::string::npos) << l.why;
  EXPECT_TRUE(any_contains(l.evidence, "the 1 node(s) its pods may use")) << render_text(x);
}

TEST(Diagnose, NoPodGroupYet) {
  Snapshot s = base("Pending", "");
  s.podgroup = nullptr;
  const Explanation x = diagnose(s);
  EXPECT_EQ(stop_link(x).name, "PodGroup");
  EXPECT_EQ(x.verdict, Verdict::ConfigurationError);
}

TEST(Diagnose, ANewJobOrPodGroupIsGivenAFewSecondsBeforeItCountsAsStopped) {
  Snapshot s = base("Pending", "");
  s.podgroup = nullptr;
  s.now = *api::parse_time("2026-12-04T10:00:30Z");
  s.job["metadata"]["creationTimestamp"] = "2026-12-04T10:00:25Z";
  EXPECT_EQ(diagnose(s).verdict, Verdict::Progressing) << render_text(diagnose(s));
  s.job["metadata"]["creationTimestamp"] = "2026-12-04T09:59:00Z";
  EXPECT_EQ(diagnose(s).verdict, Verdict::ConfigurationError);

  Snapshot p = base("Pending", "Pending");
  p.now = *api::parse_time("2026-12-04T10:00:30Z");
  p.podgroup["metadata"]["creationTimestamp"] = "2026-12-04T10:00:29Z";
  EXPECT_EQ(diagnose(p).verdict, Verdict::Progressing) << render_text(diagnose(p));
  p.podgroup["metadata"]["creationTimestamp"] = "2026-12-04T09:00:00Z";
  EXPECT_EQ(diagnose(p).verdict, Verdict::WaitingForCapacity) << render_text(diagnose(p));
}

TEST(Diagnose, MissingPriorityClassStopsPodCreation) {
  Snapshot s = base("Pending", "Inqueue");
  s.job["spec"]["tasks"][0]["template"]["spec"]["priorityClassName"] = "urgent";
  s.events = {{{"involvedObject", {{"uid", "job-uid"}}},
               {"type", "Warning"},
               {"reason", "FailedCreatePodGroup"},
               {"message", "no PriorityClass with name urgent was found"},
               {"lastTimestamp", "2026-12-04T10:00:00Z"}}};
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::ConfigurationError) << render_text(x);
  const Link& l = stop_link(x);
  EXPECT_EQ(l.name, "Pods");
  EXPECT_NE(l.why.find("PriorityClass urgent"), std::string::npos);
  EXPECT_TRUE(any_contains(l.evidence, "no PriorityClass with name urgent"));
}

TEST(Diagnose, ExistingPriorityClassIsNoStop) {
  Snapshot s = base("Pending", "Inqueue");
  s.job["spec"]["tasks"][0]["template"]["spec"]["priorityClassName"] = "urgent";
  s.priority_classes = {{{"metadata", {{"name", "urgent"}}}}};
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::Progressing) << render_text(x);
}

TEST(Diagnose, NodeSelectorMatchingNoNode) {
  Snapshot s = base("Pending", "Inqueue");
  for (int i = 0; i < 3; ++i) {
    s.pods.push_back(pod("ray-worker-" + std::to_string(i), "", "Pending",
                         {{"nodeSelector", {{"disk", "ssd"}}}}));
  }
  expect_stop(diagnose(s), Verdict::ConfigurationError, "Binding", "disk=ssd");
}

TEST(Diagnose, PendingGangWhoseSelectorMatchesNoNodeIsNamedAtEnqueue) {
  Snapshot s = base("Pending", "Pending");
  s.job["spec"]["tasks"][0]["template"]["spec"]["nodeSelector"] = {{"disk", "ssd"}};
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::ConfigurationError) << render_text(x);
  EXPECT_EQ(stop_link(x).name, "Enqueue");
  EXPECT_EQ(x.headline, "task worker's nodeSelector (disk=ssd) matches no node");
}

TEST(Diagnose, RequiredNodeAffinityMatchingNoNode) {
  Snapshot s = base("Pending", "Pending");
  s.nodes = {node("n1", "4", {{"zone", "a"}}), node("n2", "4", {{"zone", "b"}})};
  json& spec = s.job["spec"]["tasks"][0]["template"]["spec"];
  spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
      ["nodeSelectorTerms"] = json::array(
          {{{"matchExpressions",
             json::array({{{"key", "zone"}, {"operator", "In"}, {"values", {"c"}}}})}}});
  Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::ConfigurationError) << render_text(x);
  EXPECT_EQ(x.headline, "task worker's required node affinity (zone=c) matches no node");

  // With a nodeSelector too, both are named; each alone would match a node.
  spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
      ["nodeSelectorTerms"][0]["matchExpressions"][0]["values"] = {"b"};
  spec["nodeSelector"] = {{"zone", "a"}};
  x = diagnose(s);
  EXPECT_EQ(x.headline,
            "task worker's nodeSelector (zone=a) and required node affinity (zone=b) together "
            "match no node");

  // Affinity that a node satisfies: no configuration stop, the gang waits for the scheduler.
  spec.erase("nodeSelector");
  x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::WaitingForCapacity) << render_text(x);
}

TEST(Diagnose, TaintNotTolerated) {
  Snapshot s = base("Pending", "Inqueue");
  const json taint = json::array({{{"key", "gpu"}, {"value", "only"}, {"effect", "NoSchedule"}}});
  s.nodes = {node("n1", "2", json::object(), taint), node("n2", "2", json::object(), taint)};
  for (int i = 0; i < 3; ++i)
    s.pods.push_back(pod("ray-worker-" + std::to_string(i), "", "Pending"));
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::ConfigurationError) << render_text(x);
  EXPECT_NE(stop_link(x).why.find("gpu=only:NoSchedule"), std::string::npos);

  // Tolerated, the same pods only wait for the scheduler.
  for (json& p : s.pods) {
    p["spec"]["tolerations"] = json::array({{{"key", "gpu"}, {"operator", "Exists"}}});
  }
  EXPECT_EQ(diagnose(s).verdict, Verdict::Progressing);
}

TEST(Diagnose, UnboundPodsTheSchedulerReportedWaitForRoom) {
  Snapshot s = base("Pending", "Inqueue");
  for (int i = 0; i < 3; ++i) {
    json p = pod("ray-worker-" + std::to_string(i), "", "Pending");
    p["status"]["conditions"] =
        json::array({{{"type", "PodScheduled"},
                      {"status", "False"},
                      {"reason", "Unschedulable"},
                      {"message", "0/2 nodes are unavailable: 2 Insufficient cpu."}}});
    s.pods.push_back(p);
  }
  // Two CPUs of four taken: three one-CPU pods do not fit.
  s.node_pods = {pod("other-0", "n1", "Running"), pod("other-1", "n2", "Running")};
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::WaitingForCapacity) << render_text(x);
  const Link& l = stop_link(x);
  EXPECT_TRUE(any_contains(l.evidence, "Insufficient cpu"));
  EXPECT_TRUE(any_contains(l.evidence,
                           "3 unbound pod(s) need cpu: 3; the 2 node(s) they may use "
                           "have free cpu: 2 (n1 cpu: 1; n2 cpu: 1)"))
      << render_text(x);
  EXPECT_NE(l.why.find("cpu: needs 3, has 2"), std::string::npos) << l.why;
}

TEST(Diagnose, RoomInTotalButNotOnOneNodeForEachPodWaitsWithTheSplit) {
  // Two pods of 1.5 CPUs on two nodes of 2 CPUs: enough in total. n1 has no pod slot left.
  Snapshot s = base("Pending", "Inqueue");
  s.nodes[0]["status"]["allocatable"]["pods"] = "1";
  for (int i = 0; i < 2; ++i) {
    json p = pod("ray-worker-" + std::to_string(i), "", "Pending");
    p["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "1500m";
    s.pods.push_back(p);
  }
  s.node_pods = {pod("other-0", "n1", "Running")};
  s.node_pods[0]["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "0";
  const Explanation x = diagnose(s);
  expect_stop(x, Verdict::WaitingForCapacity, "Binding",
              "room in total but not on any one node for each pod (only 1 of 2 fit");
  EXPECT_TRUE(
      any_contains(stop_link(x).evidence,
                   "1 of the 2 unbound pod(s) fit: n1 cpu: 2, pods: 0; n2 cpu: 2, pods: 110"))
      << render_text(x);

  // With a slot on n1 each pod has a node: the scheduler has simply not reported yet.
  s.nodes[0]["status"]["allocatable"]["pods"] = "110";
  const Explanation y = diagnose(s);
  EXPECT_EQ(y.verdict, Verdict::Progressing) << render_text(y);
}

TEST(ClusterRoom, PodsThatFitPlaceEachPodOnOneNode) {
  const auto list = [](const std::string& cpu, const std::string& pods) {
    api::ResourceList l{{"cpu", api::Quantity::must_parse(cpu)}};
    if (!pods.empty()) l["pods"] = api::Quantity::must_parse(pods);
    return l;
  };
  const std::vector<NodeRoom> nodes = {{"a", {}, list("1", "5")}, {"b", {}, list("1", "5")}};
  EXPECT_EQ(pods_that_fit({list("600m", ""), list("600m", "")}, nodes), 2u);
  EXPECT_EQ(pods_that_fit({list("600m", ""), list("600m", ""), list("600m", "")}, nodes), 2u);
  EXPECT_EQ(pods_that_fit({list("1500m", "")}, nodes), 0u);
  EXPECT_EQ(pods_that_fit({list("0", ""), list("0", "")}, {{"c", {}, list("8", "1")}}), 1u);
  EXPECT_EQ(pods_that_fit({}, nodes), 0u);
}

TEST(Diagnose, UnboundPodsWithoutRoomWaitBeforeTheSchedulerSaysSo) {
  Snapshot s = base("Pending", "Inqueue");
  for (int i = 0; i < 3; ++i)
    s.pods.push_back(pod("ray-worker-" + std::to_string(i), "", "Pending"));
  s.node_pods = {pod("a-0", "n1", "Running"), pod("a-1", "n1", "Running"),
                 pod("a-2", "n2", "Running")};
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::WaitingForCapacity) << render_text(x);
  EXPECT_NE(stop_link(x).why.find("cpu: needs 3, has 1"), std::string::npos);
}

TEST(Diagnose, APodLargerThanEveryNodeNeverFits) {
  Snapshot s = base("Pending", "Inqueue");
  json big = pod("ray-worker-0", "", "Pending");
  big["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "3";
  s.pods = {big};
  expect_stop(diagnose(s), Verdict::ConfigurationError, "Binding",
              "pod ray-worker-0 requests cpu: 3, more than any node it may use has in all (node "
              "n1: cpu: needs 3, has 2)");

  // Before the PodGroup is admitted, the same from the task's template.
  Snapshot p = base("Pending", "Pending");
  p.job["spec"]["tasks"][0]["template"]["spec"] = big["spec"];
  expect_stop(diagnose(p), Verdict::ConfigurationError, "Enqueue",
              "each pod of task worker requests cpu: 3");
}

TEST(Diagnose, ImageThatCannotBePulled) {
  Snapshot s = base("Pending", "Running");
  for (int i = 0; i < 3; ++i) {
    json p = pod("ray-worker-" + std::to_string(i), "n1", "Pending");
    p["status"]["containerStatuses"] =
        json::array({{{"name", "main"},
                      {"state",
                       {{"waiting",
                         {{"reason", "ImagePullBackOff"},
                          {"message", "Back-off pulling image \"nosuch:1\""}}}}}}});
    s.pods.push_back(p);
  }
  expect_stop(diagnose(s), Verdict::ConfigurationError, "Running", "ImagePullBackOff");
}

TEST(Diagnose, RestartedUntilMaxRetryThenFailed) {
  Snapshot s = base("Failed", "Running");
  s.job["status"]["retryCount"] = 3;
  json failed = pod("ray-worker-0", "n1", "Failed");
  failed["status"]["containerStatuses"] = json::array(
      {{{"name", "main"}, {"state", {{"terminated", {{"exitCode", 2}, {"reason", "Error"}}}}}}});
  s.pods = {failed};
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::Failed) << render_text(x);
  const Link& l = stop_link(x);
  EXPECT_EQ(l.name, "Job");
  EXPECT_NE(l.why.find("reached maxRetry 3"), std::string::npos) << l.why;
  EXPECT_TRUE(any_contains(l.evidence, "exited 2 (Error)"));
  EXPECT_EQ(exit_code(x.verdict), 5);
}

TEST(Diagnose, CompletedAndRunningJobs) {
  EXPECT_EQ(diagnose(base("Completed", "Completed")).verdict, Verdict::Finished);
  Snapshot s = base("Running", "Running");
  for (int i = 0; i < 3; ++i)
    s.pods.push_back(pod("ray-worker-" + std::to_string(i), "n1", "Running"));
  const Explanation x = diagnose(s);
  EXPECT_EQ(x.verdict, Verdict::Progressing) << render_text(x);
  EXPECT_EQ(x.stop, -1);
  EXPECT_EQ(x.headline, "the job is running");
}

TEST(Diagnose, OddFieldsReadAsUnsetNotAsErrors) {
  Snapshot s = base("Pending", "Pending");
  s.podgroup["spec"]["minResources"] = {{"cpu", 3}, {"memory", "lots"}};
  s.nodes.push_back({{"metadata", "not an object"}, {"status", 7}});
  s.queues.push_back(json::array());
  EXPECT_NO_THROW(diagnose(s));
}

TEST(Render, JsonNamesTheStopAndEveryLink) {
  Snapshot s = base("Pending", "Pending");
  s.queues = {queue("root"), queue("q", "Closed")};
  const json j = render_json(diagnose(s));
  EXPECT_EQ(j["verdict"], "ConfigurationError");
  EXPECT_EQ(j["stop"], "Queue");
  ASSERT_EQ(j["chain"].size(), 7u);
  EXPECT_EQ(j["chain"][3]["state"], "not-reached");
  const std::string text = render_text(diagnose(s));
  EXPECT_NE(text.find("STOP Queue"), std::string::npos) << text;
  EXPECT_NE(text.find("what to do:"), std::string::npos) << text;
}

}  // namespace
}  // namespace vc::controllers::explain
