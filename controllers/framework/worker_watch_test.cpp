#include "controllers/framework/worker_watch.h"

#include <gtest/gtest.h>

#include "common/kube/workqueue/rate_limiting_queue.h"
#include "controllers/framework/worker_loop.h"

namespace vc::controllers {
namespace {

using namespace std::chrono_literals;
using Clock = WorkerWatch::Clock;

TEST(WorkerWatch, NothingRunningIsNeverStuck) {
  WorkerWatch w;
  EXPECT_FALSE(w.stuck(Clock::now(), 0s));
}

TEST(WorkerWatch, ReportsTheOldestReconcileOverTheLimit) {
  WorkerWatch w;
  const auto t0 = Clock::time_point{} + 1h;
  w.begin("job-controller", "ns/late", t0 + 5s);
  const auto first = w.begin("queue-controller", "q1", t0);
  EXPECT_FALSE(w.stuck(t0 + 10s, 10s));
  auto stuck = w.stuck(t0 + 10s + 1ms, 10s);
  ASSERT_TRUE(stuck);
  EXPECT_EQ(stuck->controller, "queue-controller");
  EXPECT_EQ(stuck->key, "q1");
  // Once it ends, the other one is judged on its own start.
  w.end(first);
  EXPECT_FALSE(w.stuck(t0 + 15s, 10s));
  EXPECT_TRUE(w.stuck(t0 + 15s + 1ms, 10s));
  EXPECT_EQ(w.running(), 1u);
}

TEST(WorkerWatch, TheWorkerLoopReportsEachReconcileWhileItRuns) {
  kube::workqueue::RateLimitingQueue<std::string> queue;
  queue.add("k");
  std::size_t running_inside = 0;
  const std::size_t before = worker_watch().running();
  ASSERT_TRUE(process_next(queue,
                                                                [&](const std::string&) {
                                                                  running_inside =
                                                                      worker_watch().running();
                                                                  return ReconcileResult::ok();
                                                                },
                                                                {.name = "test"}));
  EXPECT_EQ(running_inside, before + 1);
  EXPECT_EQ(worker_watch().running(), before);  // ended, also on the way out
  queue.shutdown();
}

TEST(WorkerWatch, AThrowingReconcileEndsToo) {
  kube::workqueue::RateLimitingQueue<std::string> queue;
  queue.add("k");
  const std::size_t before = worker_watch().running();
  process_next(
      queue, [](const std::string&) -> ReconcileResult { throw std::runtime_error("bug"); },
      {.name = "test", .max_requeue = 0});
  EXPECT_EQ(worker_watch().running(), before);
  queue.shutdown();
}

}  // namespace
}  // namespace vc::controllers
