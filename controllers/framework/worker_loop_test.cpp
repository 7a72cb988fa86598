#include "controllers/framework/worker_loop.h"

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "common/kube/errors.h"

namespace vc::controllers {
namespace {

using namespace std::chrono_literals;
using kube::workqueue::FakeClock;
using kube::workqueue::QueueOptions;
using RateLimitingQueue = kube::workqueue::RateLimitingQueue<std::string>;
using WorkerOptions = controllers::WorkerOptions<std::string>;

// Records reconcile calls and drops; tests wait on it with a deadline.
class Recorder {
 public:
  void call(const std::string& key) {
    std::lock_guard lock(mu_);
    ++calls_[key];
    cv_.notify_all();
  }
  void drop(const std::string& key, const std::string& error) {
    std::lock_guard lock(mu_);
    drops_.emplace_back(key, error);
    cv_.notify_all();
  }
  int calls(const std::string& key) {
    std::lock_guard lock(mu_);
    return calls_[key];
  }
  std::vector<std::pair<std::string, std::string>> drops() {
    std::lock_guard lock(mu_);
    return drops_;
  }
  // Waits until pred() holds (under the lock); false after 5 s.
  template <class Pred>
  bool wait(Pred pred) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 5s, [&] { return pred(calls_, drops_); });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, int> calls_;
  std::vector<std::pair<std::string, std::string>> drops_;
};

using Calls = std::map<std::string, int>;
using Drops = std::vector<std::pair<std::string, std::string>>;

TEST(WorkerLoop, ThreadsAreNumberedFromFirstIndex) {
  RateLimitingQueue queue;
  queue.add("ns/a");
  queue.add("ns/b");
  std::mutex mu;
  std::condition_variable cv;
  std::set<std::string> names;
  WorkerOptions options;
  options.name = "probe";
  options.first_index = 3;
  // Each call notes its thread's name and holds its key until both workers have one, so that
  // neither can take both keys.
  Workers workers = run_workers(
      queue, 2,
      [&](const std::string&) {
        char name[16] = {};
        pthread_getname_np(pthread_self(), name, sizeof name);
        std::unique_lock lock(mu);
        names.insert(name);
        cv.notify_all();
        cv.wait_for(lock, 5s, [&] { return names.size() >= 2; });
        return ReconcileResult::ok();
      },
      options);
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, 5s, [&] { return names.size() >= 2; }))
        << "thread names seen: " << names.size();
  }
  workers.stop();
  EXPECT_EQ(names, (std::set<std::string>{"w3:probe", "w4:probe"}));
}

TEST(WorkerLoop, SuccessForgetsTheKey) {
  RateLimitingQueue queue;
  queue.add("ns/a");
  int calls = 0;
  ASSERT_TRUE(process_next(queue,
                           [&](const std::string&) {
                             ++calls;
                             return ReconcileResult::ok();
                           },
                           {}));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(queue.num_requeues("ns/a"), 0);
  EXPECT_EQ(queue.len(), 0u);
  EXPECT_EQ(queue.waiting(), 0u);
}

TEST(WorkerLoop, FailingKeyIsRetriedMaxRequeueTimesThenDropped) {
  RateLimitingQueue queue;
  Recorder rec;
  Workers workers = run_workers(
      queue, 2,
      [&](const std::string& key) {
        rec.call(key);
        return ReconcileResult::error("boom");
      },
      {.name = "test", .max_requeue = 3, .on_drop = [&](auto& k, auto& e) { rec.drop(k, e); }});
  queue.add("ns/a");
  ASSERT_TRUE(rec.wait([](Calls&, Drops& d) { return !d.empty(); }))
      << "calls=" << rec.calls("ns/a");
  workers.stop();
  EXPECT_EQ(rec.calls("ns/a"), 4);  // the first attempt and three retries
  EXPECT_EQ(rec.drops(), (Drops{{"ns/a", "boom"}}));
  EXPECT_EQ(queue.num_requeues("ns/a"), 0);
}

TEST(WorkerLoop, ZeroMaxRequeueDropsOnFirstFailure) {
  RateLimitingQueue queue;
  Recorder rec;
  queue.add("ns/a");
  ASSERT_TRUE(process_next(
      queue,
      [&](const std::string& key) {
        rec.call(key);
        return ReconcileResult::error("nope");
      },
      {.name = "test", .max_requeue = 0, .on_drop = [&](auto& k, auto& e) { rec.drop(k, e); }}));
  EXPECT_EQ(rec.calls("ns/a"), 1);
  EXPECT_EQ(rec.drops(), (Drops{{"ns/a", "nope"}}));
  EXPECT_EQ(queue.len() + queue.waiting(), 0u);
}

TEST(WorkerLoop, NegativeMaxRequeueRetriesUntilSuccess) {
  RateLimitingQueue queue;
  Recorder rec;
  std::atomic<int> failures_left{6};
  std::atomic<int> requeues_seen_at_success{-1};
  Workers workers = run_workers(
      queue, 1,
      [&](const std::string& key) {
        rec.call(key);
        if (failures_left.fetch_sub(1) > 0) return ReconcileResult::error("again");
        requeues_seen_at_success = queue.num_requeues(key);
        return ReconcileResult::ok();
      },
      {.name = "test", .max_requeue = -1, .on_drop = [&](auto& k, auto& e) { rec.drop(k, e); }});
  queue.add("ns/a");
  ASSERT_TRUE(rec.wait([](Calls& c, Drops&) { return c["ns/a"] == 7; }))
      << "calls=" << rec.calls("ns/a");
  workers.stop();
  EXPECT_TRUE(rec.drops().empty());
  EXPECT_EQ(requeues_seen_at_success.load(), 6);
  EXPECT_EQ(queue.num_requeues("ns/a"), 0) << "success must forget the backoff";
}

TEST(WorkerLoop, RequeueAfterParksTheKeyWithAFreshBackoff) {
  auto clock = std::make_shared<FakeClock>();
  RateLimitingQueue queue(QueueOptions{.name = "", .clock = clock});
  queue.add("ns/a");
  int calls = 0;
  auto reconcile = [&](const std::string&) {
    ++calls;
    return calls == 1 ? ReconcileResult::error("first") : ReconcileResult::requeue_after(30s);
  };
  const WorkerOptions options{.name = "test", .max_requeue = 5};
  ASSERT_TRUE(process_next(queue, reconcile, options));
  EXPECT_EQ(queue.num_requeues("ns/a"), 1);
  clock->step(1s);  // past the 5 ms backoff
  ASSERT_TRUE(process_next(queue, reconcile, options));
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(queue.num_requeues("ns/a"), 0);
  EXPECT_EQ(queue.waiting(), 1u);
  EXPECT_EQ(queue.len(), 0u);
  clock->step(29s);
  EXPECT_EQ(queue.len(), 0u) << "due only after 30 s";
  clock->step(1s);
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (queue.len() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  EXPECT_EQ(queue.len(), 1u);
}

// Waits (with a deadline) until the fake clock's due keys have reached the queue.
bool wait_ready(const RateLimitingQueue& queue, std::size_t n = 1) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (queue.len() < n && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  return queue.len() >= n;
}

TEST(WorkerLoop, ThrowingReconcileIsRetriedAndNeverDropped) {
  auto clock = std::make_shared<FakeClock>();
  RateLimitingQueue queue(QueueOptions{.name = "", .clock = clock});
  queue.add("ns/a");
  std::vector<std::string> dropped;
  int calls = 0;
  const WorkerOptions options{.name = "test", .max_requeue = 0, .on_drop = [&](auto& k, auto& e) {
                                dropped.push_back(k + ": " + e);
                              }};
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(wait_ready(queue)) << "retry " << i << " never came";
    ASSERT_TRUE(process_next(
        queue,
        [&](const std::string&) -> ReconcileResult {
          ++calls;
          throw std::runtime_error("bug");
        },
        options));
    clock->step(1001s);  // past the longest backoff
  }
  EXPECT_EQ(calls, 20);
  EXPECT_TRUE(dropped.empty()) << dropped.front();
  EXPECT_EQ(queue.num_requeues("ns/a"), 20) << "every failure grows the backoff";
}

TEST(WorkerLoop, TransientFailuresAreRetriedPastMaxRequeueWithACappedBackoff) {
  auto clock = std::make_shared<FakeClock>();
  RateLimitingQueue queue(QueueOptions{.name = "", .clock = clock});
  queue.add("ns/a");
  std::vector<std::string> dropped;
  const WorkerOptions options{.name = "test",
                              .max_requeue = 2,
                              .on_drop = [&](auto& k, auto&) { dropped.push_back(k); },
                              .transient_max_delay = 2s};
  auto unavailable = [](const std::string&) {
    kube::FaultScope::note_api_error(
        kube::error_from_response(503, "service unavailable", /*retry_after_header=*/""));
    return ReconcileResult::error("create pods: ServiceUnavailable");
  };
  // 30 failures: the uncapped backoff would have reached 5 ms * 2^29 (capped at 1000 s).
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(wait_ready(queue)) << "retry " << i << " did not come within the cap";
    ASSERT_TRUE(process_next(queue, unavailable, options));
    EXPECT_EQ(queue.len(), 0u);
    clock->step(2s);
  }
  EXPECT_TRUE(dropped.empty());
  // Once the API server is back, counted failures drop the key after max_requeue retries.
  auto invalid = [](const std::string&) {
    kube::FaultScope::note_api_error(kube::error_from_response(422, "", ""));
    return ReconcileResult::error("create pods: Invalid");
  };
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(wait_ready(queue));
    ASSERT_TRUE(process_next(queue, invalid, options));
    clock->step(1001s);
  }
  EXPECT_EQ(dropped, std::vector<std::string>{"ns/a"});
}

TEST(WorkerLoop, ASuccessForgetsTheCountedFailures) {
  auto clock = std::make_shared<FakeClock>();
  RateLimitingQueue queue(QueueOptions{.name = "", .clock = clock});
  std::vector<std::string> dropped;
  const WorkerOptions options{
      .name = "test", .max_requeue = 1, .on_drop = [&](auto& k, auto&) { dropped.push_back(k); }};
  int calls = 0;
  // fail, succeed, fail, succeed ...: never two counted failures in a row, never dropped.
  auto alternate = [&](const std::string&) {
    return ++calls % 2 == 1 ? ReconcileResult::error("refused") : ReconcileResult::ok();
  };
  for (int i = 0; i < 10; ++i) {
    queue.add("ns/a");
    ASSERT_TRUE(wait_ready(queue));
    ASSERT_TRUE(process_next(queue, alternate, options));
    clock->step(1001s);
  }
  EXPECT_TRUE(dropped.empty());
}

TEST(WorkerLoop, StopLetsTheWorkerFinishItsKeyThenJoins) {
  RateLimitingQueue queue;
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> finished{false};
  Workers workers = run_workers(queue, 1, [&](const std::string&) {
    entered.set_value();
    released.wait();
    finished = true;
    return ReconcileResult::ok();
  });
  queue.add("ns/a");
  queue.add("ns/b");
  ASSERT_EQ(entered.get_future().wait_for(5s), std::future_status::ready);
  auto stopped = std::async(std::launch::async, [&] { workers.stop(); });
  EXPECT_EQ(stopped.wait_for(50ms), std::future_status::timeout)
      << "stop must wait for the key in hand";
  release.set_value();
  ASSERT_EQ(stopped.wait_for(5s), std::future_status::ready);
  EXPECT_TRUE(finished.load());
  EXPECT_EQ(workers.size(), 0u);
  EXPECT_TRUE(queue.shutting_down());
  workers.stop();  // idempotent
}

TEST(WorkerLoop, AKeyIsNeverReconciledByTwoWorkersAtOnce) {
  RateLimitingQueue queue;
  std::mutex mu;
  std::map<std::string, int> in_flight;
  std::atomic<int> overlaps{0};
  std::atomic<int> total{0};
  Workers workers = run_workers(queue, 4, [&](const std::string& key) {
    {
      std::lock_guard lock(mu);
      if (++in_flight[key] > 1) ++overlaps;
    }
    queue.add(key);  // re-add while processing: must run again only after done()
    std::this_thread::yield();
    {
      std::lock_guard lock(mu);
      --in_flight[key];
    }
    ++total;
    return ReconcileResult::ok();
  });
  for (int i = 0; i < 3; ++i) queue.add("ns/k" + std::to_string(i));
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (total.load() < 200 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  workers.stop();
  EXPECT_GE(total.load(), 200);
  EXPECT_EQ(overlaps.load(), 0);
}

}  // namespace
}  // namespace vc::controllers
