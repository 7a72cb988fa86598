#include "controllers/queue/executor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>

#include <prometheus/gauge.h>

#include "common/kube/events/fake_recorder.h"
#include "common/metrics/registry.h"
#include "common/testing/fake_apiserver.h"

namespace vc::controllers::queue {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using vc::testing::FakeApiServer;
using vc::testing::Response;
using HttpRequest = vc::testing::Request;

constexpr const char* kQueuesPath = "/apis/scheduling.volcano.sh/v1beta1/queues/";

json queue_json(const std::string& name, const std::string& rv) {
  return {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
          {"kind", "Queue"},
          {"metadata", {{"name", name}, {"resourceVersion", rv}}}};
}

kube::ClientOptions no_retries() {
  kube::ClientOptions o;
  o.max_retries = 0;
  return o;
}

class QueueExecutorTest : public ::testing::Test {
 protected:
  QueueExecutorTest()
      : client_(server_.config(), no_retries()),
        executor_(client_, recorder_, QueueMetrics::instance(), [this](const queue::Request& r) {
          std::lock_guard lock(mu_);
          enqueued_.push_back(r);
        }) {}

  std::vector<queue::Request> enqueued() {
    std::lock_guard lock(mu_);
    return enqueued_;
  }
  std::vector<std::string> verbs() {
    std::vector<std::string> out;
    for (const auto& r : server_.requests()) out.push_back(r.method + " " + r.path);
    return out;
  }

  FakeApiServer server_;
  kube::Client client_;
  kube::events::FakeRecorder recorder_;
  std::mutex mu_;
  std::vector<queue::Request> enqueued_;
  Executor executor_;
};

Plan plan_with(std::vector<Step> steps) {
  QueueInfo q;
  q.name = "q";
  q.uid = "u1";
  q.resource_version = "5";
  q.state = "Open";
  return Plan{q, std::move(steps)};
}

TEST_F(QueueExecutorTest, StateIsServerSideAppliedOnTheStatusSubresourceWithOnlyTheStateField) {
  server_.handle("PATCH", std::string(kQueuesPath) + "q/status",
                 [](const HttpRequest&) { return Response::json(200, queue_json("q", "6")); });
  auto st = executor_.execute(
      plan_with({step::ApplyState{"Open", "Closed", "CloseQueue", "Close queue failed for ",
                                  "CloseQueue", "Close queue succeed"}}));
  ASSERT_TRUE(st.ok()) << st.error().describe();
  auto reqs = server_.requests();
  ASSERT_EQ(reqs.size(), 1u) << server_.describe_requests();
  const HttpRequest& r = reqs[0];
  EXPECT_EQ(r.header("content-type"), "application/apply-patch+yaml");
  EXPECT_EQ(r.param("fieldManager"), "queue-controller");
  EXPECT_EQ(r.param("force"), "true");
  EXPECT_EQ(r.json(), (json{{"apiVersion", "scheduling.volcano.sh/v1beta1"},
                            {"kind", "Queue"},
                            {"metadata", {{"name", "q"}, {"resourceVersion", "5"}}},
                            {"status", {{"state", "Closed"}}}}));
  EXPECT_THAT(recorder_.lines(), ElementsAre("Normal CloseQueue Close queue succeed"));
  EXPECT_EQ(recorder_.events()[0].object.kind, "Queue");
  EXPECT_EQ(recorder_.events()[0].object.name, "q");
}

TEST_F(QueueExecutorTest, ConflictStopsThePlanWithoutAnEventAndIsReturnedForRetry) {
  server_.handle("PATCH", std::string(kQueuesPath) + "q/status", [](const HttpRequest&) {
    return Response::error(409, "Conflict",
                           "Operation cannot be fulfilled on queues.scheduling.volcano.sh \"q\": "
                           "the object has been modified");
  });
  auto st = executor_.execute(
      plan_with({step::ApplyState{"Closed", "Open", "OpenQueue",
                                  "Update queue status from Closed to Open failed for ", "", ""},
                 step::Annotate{"q", "false", "x: "}}));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, kube::ErrorKind::Conflict);
  EXPECT_THAT(verbs(), ElementsAre(std::string("PATCH ") + kQueuesPath + "q/status"));
  // The conflict comes from our own resourceVersion guard: no Warning for users.
  EXPECT_TRUE(recorder_.lines().empty());
}

TEST_F(QueueExecutorTest, OtherOpenFailureStopsThePlanWithAWarningEvent) {
  server_.handle("PATCH", std::string(kQueuesPath) + "q/status", [](const HttpRequest&) {
    return Response::error(422, "Invalid", "status.state: Unsupported value");
  });
  auto st = executor_.execute(
      plan_with({step::ApplyState{"Closed", "Open", "OpenQueue",
                                  "Update queue status from Closed to Open failed for ", "", ""}}));
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(recorder_.lines(),
              ElementsAre("Warning OpenQueue Update queue status from Closed to Open failed for "
                          "status.state: Unsupported value"));
}

TEST_F(QueueExecutorTest, RequireParentOpenReadsTheParentFromTheApiServer) {
  std::string parent_state = "Closed";
  std::mutex mu;
  server_.handle("GET", std::string(kQueuesPath) + "p", [&](const HttpRequest&) {
    std::lock_guard lock(mu);
    json q = queue_json("p", "3");
    q["status"] = {{"state", parent_state}};
    return Response::json(200, q);
  });
  server_.handle("PATCH", std::string(kQueuesPath) + "q/status",
                 [](const HttpRequest&) { return Response::json(200, queue_json("q", "6")); });
  const Plan plan = plan_with({step::RequireParentOpen{"p"},
                               step::ApplyState{"Closed", "Open", "OpenQueue", "x ", "", ""}});

  for (const char* closed : {"Closed", "Closing"}) {
    {
      std::lock_guard lock(mu);
      parent_state = closed;
    }
    auto st = executor_.execute(plan);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().message,
              "Failed to open queue q because its parent queue p is closing or closed. Open the "
              "parent queue first.");
  }
  EXPECT_THAT(verbs(), ElementsAre(std::string("GET ") + kQueuesPath + "p",
                                   std::string("GET ") + kQueuesPath + "p"));

  {
    std::lock_guard lock(mu);
    parent_state = "Open";
  }
  ASSERT_TRUE(executor_.execute(plan).ok());
  EXPECT_EQ(verbs().back(), std::string("PATCH ") + kQueuesPath + "q/status");
}

TEST_F(QueueExecutorTest, RequireParentOpenOnAMissingParentFailsWithTheListerText) {
  server_.handle("GET", std::string(kQueuesPath) + "p", [](const HttpRequest&) {
    return Response::error(404, "NotFound", "queues.scheduling.volcano.sh \"p\" not found");
  });
  auto st = executor_.execute(plan_with({step::RequireParentOpen{"p"}}));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message,
            "Failed to get parent queue p of queue q: queues.scheduling.volcano.sh \"p\" not "
            "found");
}

TEST_F(QueueExecutorTest, SyncFailureRecordsNoEvent) {
  server_.handle("PATCH", std::string(kQueuesPath) + "q/status",
                 [](const HttpRequest&) { return Response::error(500, "InternalError", "boom"); });
  auto st = executor_.execute(plan_with({step::ApplyState{"", "Open", "", "", "", ""}}));
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(recorder_.lines().empty());
}

TEST_F(QueueExecutorTest, DefaultParentIsAGuardedMergePatchAndLaterWritesUseTheNewVersion) {
  std::vector<json> bodies;
  std::mutex mu;
  server_.handle("PATCH", std::string(kQueuesPath) + "q", [&](const HttpRequest& r) {
    std::lock_guard lock(mu);
    bodies.push_back(r.json());
    EXPECT_EQ(r.header("content-type"), "application/merge-patch+json");
    return Response::json(200, queue_json("q", "6"));
  });
  server_.handle("PATCH", std::string(kQueuesPath) + "q/status", [&](const HttpRequest& r) {
    std::lock_guard lock(mu);
    bodies.push_back(r.json());
    return Response::json(200, queue_json("q", "7"));
  });
  auto st = executor_.execute(
      plan_with({step::DefaultParent{"5"}, step::ApplyState{"", "Open", "", "", "", ""}}));
  ASSERT_TRUE(st.ok()) << st.error().describe();
  ASSERT_EQ(bodies.size(), 2u);
  EXPECT_EQ(bodies[0],
            (json{{"metadata", {{"resourceVersion", "5"}}}, {"spec", {{"parent", "root"}}}}));
  EXPECT_EQ(bodies[1]["metadata"]["resourceVersion"], "6");
}

TEST_F(QueueExecutorTest, AnnotateAndEnqueueRunInPlanOrderAndAFailStepStopsThePlan) {
  json seen;
  server_.handle("PATCH", std::string(kQueuesPath) + "c1", [&](const HttpRequest& r) {
    seen = r.json();
    return Response::json(200, queue_json("c1", "9"));
  });
  auto st = executor_.execute(
      plan_with({step::Annotate{"c1", "true", "p: "}, step::Enqueue{{"c1", "", "CloseQueue"}},
                 step::Fail{"parent gone"}, step::Enqueue{{"c2", "", "CloseQueue"}}}));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message, "parent gone");
  EXPECT_EQ(seen,
            (json{{"metadata", {{"annotations", {{"volcano.sh/closed-by-parent", "true"}}}}}}));
  EXPECT_THAT(enqueued(), ElementsAre(queue::Request{"c1", "", "CloseQueue"}));
}

TEST_F(QueueExecutorTest, AnnotateFailureCarriesTheQueueInTheError) {
  server_.handle("PATCH", std::string(kQueuesPath) + "c1",
                 [](const HttpRequest&) { return Response::error(403, "Forbidden", "no"); });
  auto st = executor_.execute(
      plan_with({step::Annotate{"c1", "true", "Failed to update annotations of queue c1: "},
                 step::Enqueue{{"c1", "", "CloseQueue"}}}));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message, "Failed to update annotations of queue c1: no");
  EXPECT_TRUE(enqueued().empty());
}

TEST_F(QueueExecutorTest, PublishCountsSetsTheFiveGauges) {
  auto st = executor_.execute(plan_with({step::PublishCounts{
      {.pending = 1, .running = 2, .unknown = 3, .inqueue = 4, .completed = 5}}}));
  ASSERT_TRUE(st.ok());
  const std::string text = vc::metrics::render_text();
  EXPECT_THAT(text, HasSubstr("volcano_queue_pod_group_running_count{queue_name=\"q\"} 2"));
  EXPECT_THAT(text, HasSubstr("volcano_queue_pod_group_completed_count{queue_name=\"q\"} 5"));
  EXPECT_THAT(text, HasSubstr("# HELP volcano_queue_pod_group_inqueue_count The number of "
                              "Inqueue PodGroup in this queue"));
  QueueMetrics::instance().remove("q");
  EXPECT_THAT(vc::metrics::render_text(), ::testing::Not(HasSubstr("queue_name=\"q\"")));
}

TEST_F(QueueExecutorTest, CommandIsDeletedBeforeItsActionIsEnqueued) {
  server_.handle("DELETE", "/apis/bus.volcano.sh/v1alpha1/namespaces/ns1/commands/c1",
                 [this](const HttpRequest&) {
                   EXPECT_TRUE(enqueued().empty()) << "action enqueued before the delete";
                   return Response::json(200, {{"kind", "Status"}, {"status", "Success"}});
                 });
  queue::Request r{"q", "CommandIssued", "OpenQueue"};
  auto st = executor_.execute_command("ns1", "c1", r);
  ASSERT_TRUE(st.ok()) << st.error().describe();
  EXPECT_THAT(verbs(),
              ElementsAre("DELETE /apis/bus.volcano.sh/v1alpha1/namespaces/ns1/commands/c1"));
  EXPECT_THAT(enqueued(), ElementsAre(r));
}

TEST_F(QueueExecutorTest, CommandAlreadyGoneIsNotActedOn) {
  auto st = executor_.execute_command("ns1", "gone", {"q", "CommandIssued", "CloseQueue"});
  EXPECT_TRUE(st.ok());  // the fake answers 404 for unknown paths
  EXPECT_TRUE(enqueued().empty());
}

TEST_F(QueueExecutorTest, CommandDeleteFailureIsReturnedAndNothingIsEnqueued) {
  server_.handle("DELETE", "/apis/bus.volcano.sh/v1alpha1/namespaces/ns1/commands/c1",
                 [](const HttpRequest&) { return Response::error(500, "InternalError", "etcd"); });
  auto st = executor_.execute_command("ns1", "c1", {"q", "CommandIssued", "CloseQueue"});
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(enqueued().empty());
}

}  // namespace
}  // namespace vc::controllers::queue
