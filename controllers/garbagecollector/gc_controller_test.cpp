#include "controllers/garbagecollector/gc_controller.h"

#include <chrono>
#include <memory>

#include <gtest/gtest.h>

#include "common/kube/cache/factory.h"
#include "common/kube/events/fake_recorder.h"
#include "controllers/garbagecollector/gc_test_util.h"

namespace vc::controllers::gc {
namespace {

using namespace std::chrono_literals;
using namespace testing_util;
using Clock = std::chrono::system_clock;

// Runs one gc-controller against the fake server as the controller-manager would.
class Harness {
 public:
  Harness(FakeApiServer& server, GcControllerOptions options = {})
      : client_(server.config(), no_retries()),
        informers_(client_),
        ctx_{client_, informers_, recorder_, options_},
        controller_(make_gc_controller(std::move(options))) {
    EXPECT_EQ(controller_->name(), "gc-controller");
    EXPECT_EQ(controller_->initialize(ctx_).error(), "");
    informers_.start();
    EXPECT_TRUE(informers_.wait_for_sync({}, std::chrono::steady_clock::now() + 10s));
    controller_->run();
  }
  ~Harness() {
    controller_->stop();
    informers_.stop();
  }

 private:
  kube::Client client_;
  kube::cache::SharedInformerFactory informers_;
  kube::events::FakeRecorder recorder_;
  ControllerOptions options_;
  ControllerContext ctx_;
  std::unique_ptr<Controller> controller_;
};

api::TimePoint whole_seconds(api::TimePoint t) {
  return std::chrono::floor<std::chrono::seconds>(t);
}

TEST(GcController, DeletesOnlyTheExpiredFinishedJob) {
  const auto now = Clock::now();
  FakeApiServer server;
  FakeJobs jobs(server, {job("ns", "expired", "Completed", 0, now - 1h, "u-exp"),
                         job("ns", "running", "Running", 0, now - 1h),
                         job("ns", "aborted", "Aborted", 0, now - 1h),
                         job("ns", "no-ttl", "Failed", std::nullopt, now - 1h),
                         job("ns", "later", "Failed", 3600, now)});
  Harness h(server);
  ASSERT_TRUE(server.wait_for_requests(3, 10s));  // list, watch, then the cleanup's GET at least
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (requests_to(server, "DELETE", job_path("ns", "expired")).empty() &&
         std::chrono::steady_clock::now() < deadline) {
    server.wait_for_requests(server.requests().size() + 1, 100ms);
  }
  const auto deletes = requests_to(server, "DELETE", job_path("ns", "expired"));
  ASSERT_EQ(deletes.size(), 1u) << server.describe_requests();
  EXPECT_EQ(deletes[0].json()["preconditions"]["uid"], "u-exp");
  // The others were never even read: only the expired job reached the API.
  for (const Request& r : server.requests()) {
    if (r.path.find("/namespaces/") != std::string::npos) {
      EXPECT_NE(r.path.find("/expired"), std::string::npos) << server.describe_requests();
    }
  }
}

TEST(GcController, JobNotYetDueIsDeletedWhenItsTtlRunsOut) {
  // lastTransitionTime has whole seconds, so the job expires 1-2 s from now.
  const auto finished = whole_seconds(Clock::now());
  const auto expires = finished + 2s;
  FakeApiServer server;
  FakeJobs jobs(server, {job("ns", "soon", "Completed", 2, finished)});
  Harness h(server);
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  // The request log is written before the handler runs; wait for the handler's record.
  while (jobs.delete_times("soon").empty() && std::chrono::steady_clock::now() < deadline) {
    server.wait_for_requests(server.requests().size() + 1, 100ms);
  }
  const auto at = jobs.delete_times("soon");
  ASSERT_EQ(at.size(), 1u) << server.describe_requests();
  EXPECT_GE(at[0], expires) << "deleted early";
  EXPECT_LT(at[0], expires + 2s) << "deleted late";
  // Parked, not polled: a single fresh read right before the delete.
  EXPECT_EQ(requests_to(server, "GET", job_path("ns", "soon")).size(), 1u)
      << server.describe_requests();
}

TEST(GcController, FailedDeleteIsRetriedUntilItSucceeds) {
  FakeApiServer server;
  FakeJobs jobs(server, {job("ns", "flaky", "Failed", 0, Clock::now() - 1h)});
  jobs.script_delete("flaky", Response::error(500, "InternalError", "try again"));
  jobs.script_delete("flaky", Response::error(503, "ServiceUnavailable", "try again"));
  Harness h(server);
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (requests_to(server, "DELETE", job_path("ns", "flaky")).size() < 3 &&
         std::chrono::steady_clock::now() < deadline) {
    server.wait_for_requests(server.requests().size() + 1, 100ms);
  }
  EXPECT_EQ(requests_to(server, "DELETE", job_path("ns", "flaky")).size(), 3u)
      << server.describe_requests();
}

TEST(GcController, InjectedClockDecidesExpiry) {
  // The job finished an hour "ago" by the real clock but only a second ago by the injected one.
  const auto finished = whole_seconds(Clock::now()) - 1h;
  FakeApiServer server;
  FakeJobs jobs(server, {job("ns", "held", "Completed", 3600, finished),
                         job("ns", "gone", "Completed", 1, finished)});
  GcControllerOptions options;
  options.now = [finished] { return finished + 2s; };
  Harness h(server, std::move(options));
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (requests_to(server, "DELETE", job_path("ns", "gone")).empty() &&
         std::chrono::steady_clock::now() < deadline) {
    server.wait_for_requests(server.requests().size() + 1, 100ms);
  }
  EXPECT_EQ(requests_to(server, "DELETE", job_path("ns", "gone")).size(), 1u)
      << server.describe_requests();
  EXPECT_TRUE(requests_to(server, "GET", job_path("ns", "held")).empty())
      << server.describe_requests();
}

}  // namespace
}  // namespace vc::controllers::gc
