#include "common/kube/workqueue/queue.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <future>
#include <map>
#include <thread>
#include <vector>

namespace vc::kube::workqueue {
namespace {

using namespace std::chrono_literals;

// g++ 12 warns on designated initializers that skip members, so options are built here.
QueueOptions on_clock(std::shared_ptr<Clock> clock, std::string name = {}) {
  QueueOptions o;
  o.name = std::move(name);
  o.clock = std::move(clock);
  return o;
}

// Waits for a future with a generous deadline so a bug shows as a failure, not a hang.
template <class T>
bool ready_within(std::future<T>& f, std::chrono::seconds d = 10s) {
  return f.wait_for(d) == std::future_status::ready;
}

TEST(Queue, AddingAQueuedKeyAgainKeepsOneEntry) {
  Queue<std::string> q;
  q.add("ns/a");
  q.add("ns/b");
  q.add("ns/a");
  EXPECT_EQ(q.len(), 2u);
  EXPECT_EQ(q.get(), "ns/a");
  EXPECT_EQ(q.get(), "ns/b");
  EXPECT_EQ(q.len(), 0u);
}

TEST(Queue, KeysComeOutInAddOrder) {
  Queue<std::string> q;
  for (const char* k : {"c", "a", "b"}) q.add(k);
  EXPECT_EQ(q.get(), "c");
  EXPECT_EQ(q.get(), "a");
  EXPECT_EQ(q.get(), "b");
}

TEST(Queue, ReAddWhileProcessingIsRequeuedAfterDone) {
  Queue<std::string> q;
  q.add("k");
  ASSERT_EQ(q.get(), "k");
  q.add("k");
  q.add("k");
  EXPECT_EQ(q.len(), 0u) << "a key being processed must not be handed to another worker";
  q.done("k");
  EXPECT_EQ(q.len(), 1u);
  EXPECT_EQ(q.get(), "k");
  q.done("k");
  EXPECT_EQ(q.len(), 0u);
}

TEST(Queue, DoneWithoutReAddDoesNotRequeue) {
  Queue<std::string> q;
  q.add("k");
  ASSERT_EQ(q.get(), "k");
  q.done("k");
  EXPECT_EQ(q.len(), 0u);
}

TEST(Queue, DoneForAKeyNotBeingProcessedThrows) {
  Queue<std::string> q;
  q.add("k");
  EXPECT_THROW(q.done("k"), std::logic_error);
  EXPECT_THROW(q.done("other"), std::logic_error);
}

TEST(Queue, KeyIsNeverProcessedByTwoWorkersAtOnce) {
  Queue<std::string> q;
  constexpr int kKeys = 16;
  constexpr int kWorkers = 8;
  constexpr int kProducers = 4;
  constexpr int kAddsPerProducer = 20000;
  std::array<std::atomic<bool>, kKeys> busy{};
  std::array<std::atomic<int>, kKeys> processed{};
  std::atomic<int> overlaps{0};

  std::vector<std::thread> workers;
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&] {
      while (auto key = q.get()) {
        const int i = std::stoi(*key);
        if (busy[i].exchange(true)) overlaps++;
        processed[i]++;
        std::this_thread::yield();
        busy[i] = false;
        q.done(*key);
      }
    });
  }
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (int n = 0; n < kAddsPerProducer; ++n) q.add(std::to_string((n + p) % kKeys));
    });
  }
  for (auto& t : producers) t.join();
  // Every key added after its last processing started must be processed again, so the queue
  // empties only when all adds have been served.
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (q.len() > 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  q.shutdown_with_drain();
  for (auto& t : workers) t.join();

  EXPECT_EQ(overlaps.load(), 0);
  for (int i = 0; i < kKeys; ++i) EXPECT_GT(processed[i].load(), 0) << "key " << i;
}

TEST(Queue, ShutdownWakesBlockedGetters) {
  Queue<std::string> q;
  std::vector<std::future<std::optional<std::string>>> getters;
  for (int i = 0; i < 4; ++i)
    getters.push_back(std::async(std::launch::async, [&] { return q.get(); }));
  q.shutdown();
  for (auto& g : getters) {
    ASSERT_TRUE(ready_within(g)) << "a getter stayed blocked after shutdown";
    EXPECT_EQ(g.get(), std::nullopt);
  }
}

TEST(Queue, AfterShutdownGetReturnsNulloptAndAddsAreIgnored) {
  Queue<std::string> q;
  q.add("queued");
  q.shutdown();
  EXPECT_TRUE(q.shutting_down());
  q.add("late");
  q.add_after("later", 1ms);
  EXPECT_EQ(q.len(), 0u);
  EXPECT_EQ(q.waiting(), 0u);
  EXPECT_EQ(q.get(), std::nullopt);
}

TEST(Queue, ShutdownWithDrainWaitsForInFlightKeys) {
  Queue<std::string> q;
  q.add("a");
  q.add("b");
  ASSERT_EQ(q.get(), "a");
  auto drained = std::async(std::launch::async, [&] { q.shutdown_with_drain(); });
  // The queued "b" is dropped; only the in-flight "a" holds the drain.
  while (!q.shutting_down()) std::this_thread::yield();
  EXPECT_EQ(drained.wait_for(50ms), std::future_status::timeout)
      << "drain returned while a key was still being processed";
  EXPECT_EQ(q.get(), std::nullopt);
  q.done("a");
  EXPECT_TRUE(ready_within(drained)) << "drain did not return after the last done()";
}

TEST(Queue, AddAfterReleasesKeysInDueOrder) {
  auto clock = std::make_shared<FakeClock>();
  Queue<std::string> q(on_clock(clock));
  q.add_after("thirty", 30ms);
  q.add_after("ten", 10ms);
  q.add_after("twenty", 20ms);
  q.add_after("twenty-too", 20ms);
  EXPECT_EQ(q.waiting(), 4u);
  EXPECT_EQ(q.len(), 0u);
  clock->step(30ms);
  EXPECT_EQ(q.get(), "ten");
  EXPECT_EQ(q.get(), "twenty");
  EXPECT_EQ(q.get(), "twenty-too");
  EXPECT_EQ(q.get(), "thirty");
}

TEST(Queue, AddAfterDoesNotReleaseKeysBeforeTheirDueTime) {
  auto clock = std::make_shared<FakeClock>();
  Queue<std::string> q(on_clock(clock));
  q.add_after("late", 10ms);
  q.add_after("early", 5ms);
  clock->step(5ms);
  // The timer promotes every due key in one pass, so once "early" is out "late" was checked.
  EXPECT_EQ(q.get(), "early");
  EXPECT_EQ(q.len(), 0u);
  EXPECT_EQ(q.waiting(), 1u);
  clock->step(5ms);
  EXPECT_EQ(q.get(), "late");
}

TEST(Queue, AddAfterTwiceKeepsTheEarlierDueTime) {
  auto clock = std::make_shared<FakeClock>();
  Queue<std::string> q(on_clock(clock));
  q.add_after("k", 10ms);
  q.add_after("k", 50ms);
  q.add_after("marker", 10ms);
  EXPECT_EQ(q.waiting(), 2u);
  clock->step(10ms);
  EXPECT_EQ(q.get(), "k");
  EXPECT_EQ(q.get(), "marker");
  EXPECT_EQ(q.waiting(), 0u);
}

TEST(Queue, AddAfterWithAHugeDelayParksTheKeyWithoutOverflow) {
  auto clock = std::make_shared<FakeClock>();
  Queue<std::string> q(on_clock(clock));
  q.add_after("k", Duration::max());
  q.add_after("marker", 1ms);
  clock->step(1ms);
  EXPECT_EQ(q.get(), "marker");
  EXPECT_EQ(q.waiting(), 1u);
}

TEST(Queue, AddAfterWithoutDelayAddsNow) {
  Queue<std::string> q;
  q.add_after("k", Duration::zero());
  EXPECT_EQ(q.len(), 1u);
}

TEST(Queue, AddAfterWithTheRealClockFires) {
  Queue<std::string> q;
  q.add_after("k", 5ms);
  auto got = std::async(std::launch::async, [&] { return q.get(); });
  ASSERT_TRUE(ready_within(got));
  EXPECT_EQ(got.get(), "k");
}

TEST(Queue, DueKeyBeingProcessedRunsAgainAfterDone) {
  auto clock = std::make_shared<FakeClock>();
  Queue<std::string> q(on_clock(clock));
  q.add("k");
  ASSERT_EQ(q.get(), "k");
  q.add_after("k", 1ms);
  q.add_after("marker", 1ms);
  clock->step(1ms);
  EXPECT_EQ(q.get(), "marker");
  EXPECT_EQ(q.len(), 0u);
  q.done("k");
  EXPECT_EQ(q.get(), "k");
}

// A controller's own request type as key: equal values are one item, and errors name the key
// through its describe().
struct Req {
  std::string job;
  std::string event;
  friend bool operator==(const Req&, const Req&) = default;
};
struct ReqHash {
  std::size_t operator()(const Req& r) const {
    return std::hash<std::string>()(r.job) * 31 + std::hash<std::string>()(r.event);
  }
};
std::string describe(const Req& r) {
  return r.job + "#" + r.event;
}

TEST(TypedQueue, EqualStructKeysAreOneItemAndDistinctOnesAreNot) {
  Queue<Req, ReqHash> q;
  q.add({"ns/a", "PodFailed"});
  q.add({"ns/a", "PodFailed"});
  q.add({"ns/a", "OutOfSync"});
  EXPECT_EQ(q.len(), 2u);
  auto first = q.get();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, (Req{"ns/a", "PodFailed"}));
  q.add(*first);  // re-added while processing: held back until done()
  EXPECT_EQ(q.len(), 1u);
  q.done(*first);
  EXPECT_EQ(q.len(), 2u);
}

TEST(TypedQueue, DelayedStructKeyKeepsTheEarlierDueTime) {
  auto clock = std::make_shared<FakeClock>();
  Queue<Req, ReqHash> q(on_clock(clock));
  q.add_after({"ns/a", "x"}, 10ms);
  q.add_after({"ns/a", "x"}, 2ms);
  EXPECT_EQ(q.waiting(), 1u);
  clock->step(2ms);
  EXPECT_EQ(q.get(), (Req{"ns/a", "x"}));
}

TEST(TypedQueue, DoneOfAKeyNotHandedOutNamesTheKey) {
  Queue<Req, ReqHash> q;
  try {
    q.done({"ns/a", "x"});
    FAIL() << "done() of a key never handed out did not throw";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("ns/a#x"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace vc::kube::workqueue
