// `check --kubeconfig` against an in-process fake API server: queues come from one list,
// namespaces from GETs, and lookups are no longer skipped.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/testing/fake_apiserver.h"
#include "common/testing/temp_dir.h"
#include "webhook/check/check_test_util.h"

namespace vc::webhook::check {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testing::lines_of;
using ::testing::Not;
using testing::run_check_main;
using vc::testing::FakeApiServer;
using vc::testing::Request;
using vc::testing::Response;

nlohmann::json queue(const std::string& name, const std::string& state) {
  return {
      {"metadata", {{"name", name}}}, {"spec", {{"weight", 1}}}, {"status", {{"state", state}}}};
}

std::string job(const std::string& name, const std::string& queue_name) {
  return "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: " + name +
         "}\nspec:\n  queue: " + queue_name +
         "\n  tasks:\n  - {name: w, replicas: 1, template: {spec: {containers: "
         "[{name: c, image: busybox}]}}}\n";
}

class CheckKubeTest : public ::testing::Test {
 protected:
  CheckKubeTest() {
    server_.handle("GET", "/apis/scheduling.volcano.sh/v1beta1/queues", [this](const Request&) {
      return Response::json(200, {{"kind", "QueueList"},
                                  {"apiVersion", "scheduling.volcano.sh/v1beta1"},
                                  {"metadata", {{"resourceVersion", "7"}}},
                                  {"items", queues_}});
    });
    server_.handle("GET", "/api/v1/namespaces/ml", [](const Request&) {
      return Response::json(
          200, {{"kind", "Namespace"},
                {"metadata",
                 {{"name", "ml"},
                  {"annotations", {{"scheduling.volcano.sh/queue-name", "research"}}}}}});
    });
    kubeconfig_ = dir_.write("kubeconfig",
                             "apiVersion: v1\nkind: Config\n"
                             "clusters:\n- name: fake\n  cluster:\n    server: " +
                                 server_.url() +
                                 "\n"
                                 "contexts:\n- name: fake\n  context: {cluster: fake, user: u}\n"
                                 "current-context: fake\n"
                                 "users:\n- name: u\n  user: {token: secret}\n");
  }

  FakeApiServer server_;
  vc::testing::TempDir dir_;
  std::string kubeconfig_;
  nlohmann::json queues_ = nlohmann::json::array(
      {queue("default", "Open"), queue("closed-q", "Closed"), queue("research", "Open")});
};

TEST_F(CheckKubeTest, JobInAClosedQueueIsDenied) {
  const std::string file =
      dir_.write("jobs.yaml", job("a", "closed-q") + "---\n" + job("b", "default"));
  auto r = run_check_main({"-f", file, "--kubeconfig", kubeconfig_, "-o", "none"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(lines_of(r.err),
            (std::vector<std::string>{
                file + ":1: Job default/a: denied: can only submit job to queue with state "
                       "`Open`, queue `closed-q` status is `Closed`;",
                file + ":2: Job default/b: allowed",
                "summary: 2 objects: 1 allowed, 1 denied, 0 not admitted; 0 unreadable"}));
  // One list of queues for the whole run, with the kubeconfig's credentials.
  int lists = 0;
  for (const auto& req : server_.requests()) {
    if (req.path == "/apis/scheduling.volcano.sh/v1beta1/queues") {
      ++lists;
      EXPECT_EQ(req.header("authorization"), "Bearer secret");
    }
  }
  EXPECT_EQ(lists, 1) << server_.describe_requests();
}

TEST_F(CheckKubeTest, JobInAMissingQueueIsDenied) {
  const std::string file = dir_.write("job.yaml", job("a", "nope"));
  auto r = run_check_main({"-f", file, "--kubeconfig", kubeconfig_});
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(lines_of(r.err),
              Contains(file + ":1: Job default/a: denied: unable to find job queue: "
                              "queue.scheduling.volcano.sh \"nope\" not found;"));
}

TEST_F(CheckKubeTest, PodGroupTakesTheQueueOfItsNamespaceAnnotation) {
  const std::string file =
      dir_.write("pg.yaml",
                 "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
                 "metadata: {name: pg, namespace: ml}\nspec: {queue: default, minMember: 1}\n");
  auto r = run_check_main({"-f", file, "--kubeconfig", kubeconfig_, "-o", "json"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["spec"]["queue"], "research");
  EXPECT_THAT(r.err, Not(HasSubstr("skipped")));
}

TEST_F(CheckKubeTest, QueuesCreatedEarlierInTheInputAreKnownToLaterJobs) {
  const std::string file =
      dir_.write("bundle.yaml",
                 "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: new-q}\n"
                 "spec: {weight: 1}\n---\n" +
                     job("a", "new-q"));
  auto r = run_check_main({"-f", file, "--kubeconfig", kubeconfig_, "-o", "none"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(lines_of(r.err), Contains(file + ":2: Job default/a: allowed"));
}

TEST_F(CheckKubeTest, AFailedQueueListIsAnErrorBeforeAnythingIsChecked) {
  server_.handle("GET", "/apis/scheduling.volcano.sh/v1beta1/queues", [](const Request&) {
    return Response::error(403, "Forbidden", "queues is forbidden");
  });
  const std::string file = dir_.write("job.yaml", job("a", "default"));
  auto r = run_check_main({"-f", file, "--kubeconfig", kubeconfig_});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("error: cannot list queues: "));
  EXPECT_THAT(r.err, HasSubstr("queues is forbidden"));
  EXPECT_THAT(r.err, Not(HasSubstr("Job default/a")));
}

TEST_F(CheckKubeTest, ABadKubeconfigIsAnError) {
  const std::string file = dir_.write("job.yaml", job("a", "default"));
  auto r = run_check_main({"-f", file, "--kubeconfig", (dir_.path() / "missing").string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("error: "));
}

}  // namespace
}  // namespace vc::webhook::check
