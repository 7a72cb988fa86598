// The executor against an in-process API server, on plans made from caches that lag the
// controller's own writes: a repeated create meets AlreadyExists (no second Created event), the
// status write carries the flow's resourceVersion (a Conflict is an error to retry), and a
// retain-policy delete of a Job already gone is no error.
#include "controllers/jobflow/executor.h"

#include <mutex>
#include <set>

#include <gtest/gtest.h>

#include "common/kube/events/fake_recorder.h"
#include "common/testing/fake_apiserver.h"

namespace vc::controllers::jobflow {
namespace {

using nlohmann::json;
using std::chrono::seconds;
using vc::testing::FakeApiServer;
using vc::testing::Reply;
using vc::testing::Request;
using vc::testing::Response;

constexpr const char* kJobs = "/apis/batch.volcano.sh/v1alpha1/namespaces/ml/jobs";
constexpr const char* kStatus = "/apis/flow.volcano.sh/v1alpha1/namespaces/ml/jobflows/pipe/status";

const api::TimePoint kNow{seconds(1705312800)};

// A two-step flow at resourceVersion 12: a, then b once a completed.
volcano::JobFlow flow(const std::string& phase, const std::string& retain = "retain") {
  json doc = {
      {"metadata",
       {{"name", "pipe"}, {"namespace", "ml"}, {"uid", "jf-uid"}, {"resourceVersion", "12"}}},
      {"spec",
       {{"jobRetainPolicy", retain},
        {"flows",
         json::array({{{"name", "a"}}, {{"name", "b"}, {"dependsOn", {{"targets", {"a"}}}}}})}}},
      {"status", {{"state", {{"phase", phase}}}}}};
  volcano::JobFlow out;
  volcano::decode_job_flow(doc, out);
  return out;
}

volcano::Job job(const std::string& name, const std::string& phase) {
  volcano::Job j;
  j.name = name;
  j.namespace_ = "ml";
  j.status.phase = phase;
  j.creation_timestamp = kNow - seconds(60);
  return j;
}

class JobFlowExecutorTest : public ::testing::Test {
 protected:
  JobFlowExecutorTest() {
    template_a_.name = "a";
    template_a_.spec = {{"queue", "q-a"}};
    // Jobs are stored by name: a second create of one answers AlreadyExists.
    server_.handle("POST", kJobs, [this](const Request& r) -> Reply {
      const std::string name = r.json()["metadata"]["name"];
      std::lock_guard lock(mu_);
      if (!created_.insert(name).second) {
        return Response::error(409, "AlreadyExists",
                               "jobs.batch.volcano.sh \"" + name + "\" already exists");
      }
      return Response::json(201, r.json());
    });
  }

  // The flow's snapshot with these Jobs cached (both by name and as the flow's).
  Snapshot snapshot(const volcano::JobFlow& jf, const std::vector<const volcano::Job*>& jobs) {
    Snapshot s;
    s.flow = &jf;
    s.now = kNow;
    for (const volcano::Job* j : jobs) {
      s.jobs_by_name[j->name] = j;
      s.flow_jobs.push_back(j);
    }
    s.templates["a"] = &template_a_;
    return s;
  }

  std::vector<Request> requests(const std::string& method, const std::string& path) const {
    std::vector<Request> out;
    for (const Request& r : server_.requests()) {
      if (r.method == method && r.path == path) out.push_back(r);
    }
    return out;
  }

  FakeApiServer server_;
  kube::Client client_{server_.config()};
  kube::events::FakeRecorder recorder_;
  JobTemplateView template_a_;
  std::mutex mu_;
  std::set<std::string> created_;
};

// The Jobs cache lags our create of the first step's Job: the next sync plans the same
// deterministic name again, the create meets AlreadyExists, and the sync goes on without a
// second Created event.
TEST_F(JobFlowExecutorTest, ACreateOfAJobTheCacheLacksToleratesAlreadyExistsWithoutASecondEvent) {
  const volcano::JobFlow jf = flow("Pending");
  const Plan first = plan_sync(snapshot(jf, {}));
  ASSERT_EQ(first.creates.size(), 1u);
  ASSERT_FALSE(first.status_changed);
  EXPECT_EQ(execute(first, jf, client_, recorder_), "");
  const Plan again = plan_sync(snapshot(jf, {}));
  ASSERT_EQ(again.creates, first.creates);
  EXPECT_EQ(execute(again, jf, client_, recorder_), "");

  const auto posts = requests("POST", kJobs);
  ASSERT_EQ(posts.size(), 2u) << server_.describe_requests();
  EXPECT_EQ(posts[0].json()["metadata"]["name"], "pipe-a");
  EXPECT_EQ(posts[1].json()["metadata"]["name"], "pipe-a");
  EXPECT_EQ(recorder_.lines(),
            std::vector<std::string>{"Normal Created create a job named pipe-a!"});
}

// The flow's cache is behind our last status write (the server holds resourceVersion 13): the
// write carries the cached 12, the server refuses it, and the sync fails to be retried on a
// fresh cache rather than overwrite the newer status.
TEST_F(JobFlowExecutorTest, TheStatusWriteCarriesTheFlowsResourceVersionAndAConflictIsRetried) {
  server_.handle("PUT", kStatus, [](const Request& r) -> Reply {
    if (r.json()["metadata"].value("resourceVersion", "") != "13") {
      return Response::error(409, "Conflict", "the object has been modified");
    }
    return Response::json(200, r.json());
  });
  const volcano::JobFlow jf = flow("Running");
  const volcano::Job a = job("pipe-a", "Running");
  const Plan plan = plan_sync(snapshot(jf, {&a}));
  ASSERT_TRUE(plan.status_changed);
  const std::string error = execute(plan, jf, client_, recorder_);
  EXPECT_NE(error.find("updating status of JobFlow ml/pipe"), std::string::npos) << error;

  const auto puts = requests("PUT", kStatus);
  ASSERT_EQ(puts.size(), 1u) << server_.describe_requests();
  EXPECT_EQ(puts[0].json()["metadata"]["resourceVersion"], "12");
}

// A Succeed flow with retain policy delete whose Jobs cache still holds a Job we already deleted:
// that delete answers NotFound, which is no error, and the other Job is deleted too.
TEST_F(JobFlowExecutorTest, RetainPolicyDeleteOfAJobWeAlreadyDeletedIsNoError) {
  server_.handle("DELETE", std::string(kJobs) + "/pipe-b", [](const Request&) {
    return Response::json(200, {{"status", "Success"}});
  });
  const volcano::JobFlow jf = flow("Succeed", "delete");
  const volcano::Job a = job("pipe-a", "Completed");
  const volcano::Job b = job("pipe-b", "Completed");
  const Plan plan = plan_sync(snapshot(jf, {&a, &b}));
  ASSERT_EQ(plan.deletes, (std::vector<std::string>{"pipe-a", "pipe-b"}));
  EXPECT_EQ(execute(plan, jf, client_, recorder_), "");  // pipe-a is unhandled: 404

  EXPECT_EQ(requests("DELETE", std::string(kJobs) + "/pipe-a").size(), 1u);
  EXPECT_EQ(requests("DELETE", std::string(kJobs) + "/pipe-b").size(), 1u);
}

}  // namespace
}  // namespace vc::controllers::jobflow
