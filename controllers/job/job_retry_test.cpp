// The job controller's retries through the worker loop, on in-memory parts (processor_fixture.h):
// a job whose pod creates fail is terminated after --max-requeue-num failures only when the
// failures are about the job; an API server outage or our own exception never terminates it.

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/kube/errors.h"
#include "common/kube/workqueue/rate_limiting_queue.h"
#include "controllers/framework/worker_loop.h"
#include "controllers/job/processor_fixture.h"

namespace vc::controllers::job {
namespace {

using namespace std::chrono_literals;
using testing::job_json;
using testing::JobFixture;
using RequestQueue = kube::workqueue::RateLimitingQueue<Request, RequestHash>;

constexpr int kMaxRequeue = 3;

// The job controller's loop over one shard, driven by hand on a fake clock.
struct Loop {
  explicit Loop(JobFixture& f)
      : f(f), queue(kube::workqueue::QueueOptions{.name = "", .clock = clock}) {
    options.name = "job-controller";
    options.max_requeue = kMaxRequeue;
    options.transient_max_delay = 1s;
    options.on_drop = [this](const Request& req, const std::string& error) {
      ++drops;
      this->f.give_up(req, error);
    };
    queue.add(JobFixture::sync());
  }

  // Processes the job's request once it is due; false if it never came (it was dropped).
  bool round() {
    const auto deadline = std::chrono::steady_clock::now() + 2s;
    while (queue.len() == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    if (queue.len() == 0) return false;
    EXPECT_TRUE(process_next(
        queue, [this](const Request& req) { return f.process(req); }, options));
    f.catch_up();
    clock->step(1001s);  // past any backoff
    return true;
  }

  JobFixture& f;
  std::shared_ptr<kube::workqueue::FakeClock> clock =
      std::make_shared<kube::workqueue::FakeClock>();
  RequestQueue queue;
  WorkerOptions<Request> options;
  int drops = 0;
};

// A job of one pod whose PodGroup is Inqueue: its next sync creates the pod.
void ready_to_create_pods(JobFixture& f) {
  f.add_job(job_json("job1", {{"main", 1}}));
  ASSERT_EQ(f.process(JobFixture::sync()).kind(), ReconcileResult::Kind::Ok);
  f.set_podgroup_phase("job1", "Inqueue");
  f.take_writes();
  f.take_events();
}

// What the API server answers a pod create while another admission webhook on pods, with
// failurePolicy Fail, is down.
kube::ApiError webhook_down() {
  return kube::error_from_response(
      500,
      R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"InternalError","code":500,)"
      R"("message":"Internal error occurred: failed calling webhook \"deny.example.com\": )"
      R"(failed to call webhook: connect: connection refused"})",
      "");
}

TEST(JobRetries, AnOutageOfPodCreatesNeverTerminatesTheJob) {
  JobFixture f;
  ready_to_create_pods(f);
  Loop loop(f);
  // Five times --max-requeue-num failed syncs in a row.
  for (int i = 0; i < 5 * (kMaxRequeue + 1); ++i) {
    f.api.fail_next("create", kube::resources::pods, "ns1/*", webhook_down());
    ASSERT_TRUE(loop.round()) << "the request was dropped after " << i << " failures";
  }
  EXPECT_EQ(loop.drops, 0);
  EXPECT_NE(f.job_phase(), "Terminating");
  EXPECT_TRUE(f.pod_names().empty());
  // The outage ends: the next retry creates the pod.
  ASSERT_TRUE(loop.round());
  EXPECT_EQ(f.pod_names(), std::vector<std::string>{"job1-main-0"});
  EXPECT_EQ(loop.drops, 0);
}

TEST(JobRetries, PodCreatesRefusedForTheJobTerminateItAfterMaxRequeue) {
  JobFixture f;
  ready_to_create_pods(f);
  Loop loop(f);
  for (int i = 0; i < kMaxRequeue + 1; ++i) {
    EXPECT_EQ(loop.drops, 0) << "dropped after " << i << " failures";
    f.api.fail_next("create", kube::resources::pods, "ns1/*",
                    vc::testing::api_error(kube::ErrorKind::Invalid, "spec.containers: invalid"));
    ASSERT_TRUE(loop.round());
  }
  EXPECT_EQ(loop.drops, 1);
  EXPECT_EQ(f.job_phase(), "Terminating");
}

TEST(JobRetries, TransientFailuresBetweenRefusalsDoNotCount) {
  JobFixture f;
  ready_to_create_pods(f);
  Loop loop(f);
  for (int i = 0; i < kMaxRequeue; ++i) {
    f.api.fail_next("create", kube::resources::pods, "ns1/*",
                    vc::testing::api_error(kube::ErrorKind::Forbidden, "exceeded quota"));
    ASSERT_TRUE(loop.round());
    for (int j = 0; j < 3; ++j) {
      f.api.fail_next("create", kube::resources::pods, "ns1/*", webhook_down());
      ASSERT_TRUE(loop.round());
    }
  }
  EXPECT_EQ(loop.drops, 0) << kMaxRequeue << " refusals and many outages are within the limit";
  f.api.fail_next("create", kube::resources::pods, "ns1/*",
                  vc::testing::api_error(kube::ErrorKind::Forbidden, "exceeded quota"));
  ASSERT_TRUE(loop.round());
  EXPECT_EQ(loop.drops, 1);
}

TEST(JobRetries, AJobWeCannotReadIsRetriedNotTerminated) {
  JobFixture f;
  auto job = job_json("job1", {{"main", 1}});
  // The API server accepts it; our derivations throw on it (a bug of ours, or a gap in them).
  job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]["resources"]["requests"]["cpu"] =
      "not-a-quantity";
  f.add_job(job);
  Loop loop(f);
  for (int i = 0; i < 3 * (kMaxRequeue + 1); ++i) {
    ASSERT_TRUE(loop.round()) << "the request was dropped after " << i << " failures";
  }
  EXPECT_EQ(loop.drops, 0);
  EXPECT_NE(f.job_phase(), "Terminating");
  const auto events = f.take_events();
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front().rfind("Warning SyncError: Failed to sync job: ", 0), 0u)
      << events.front();
}

}  // namespace
}  // namespace vc::controllers::job
