// Throughput of the add -> get -> done cycle, the path every informer event takes to a worker.

#include <benchmark/benchmark.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "common/kube/workqueue/rate_limiting_queue.h"

namespace vc::kube::workqueue {
namespace {

std::vector<std::string> make_keys(int n) {
  std::vector<std::string> keys;
  keys.reserve(n);
  for (int i = 0; i < n; ++i)
    keys.push_back("namespace-" + std::to_string(i % 50) + "/pod-" + std::to_string(i));
  return keys;
}

// One producer adds distinct keys while state.range(0) workers get and done them.
void BM_AddGetDone(benchmark::State& state) {
  const int workers = static_cast<int>(state.range(0));
  const auto keys = make_keys(10000);
  int64_t items = 0;
  for (auto _ : state) {
    RateLimitingQueue<std::string> q;
    std::atomic<int64_t> processed{0};
    std::vector<std::thread> pool;
    for (int w = 0; w < workers; ++w) {
      pool.emplace_back([&] {
        while (auto key = q.get()) {
          benchmark::DoNotOptimize(key->size());
          q.done(*key);
          processed.fetch_add(1, std::memory_order_relaxed);
        }
      });
    }
    for (const auto& k : keys) q.add(k);
    while (processed.load(std::memory_order_relaxed) < static_cast<int64_t>(keys.size())) {
      std::this_thread::yield();
    }
    q.shutdown();
    for (auto& t : pool) t.join();
    items += static_cast<int64_t>(keys.size());
  }
  state.SetItemsProcessed(items);
}
BENCHMARK(BM_AddGetDone)->Arg(1)->Arg(8)->UseRealTime()->Unit(benchmark::kMillisecond);

// Single-threaded cost of the bookkeeping alone: add, get, done on one thread.
void BM_AddGetDoneSingleThread(benchmark::State& state) {
  const auto keys = make_keys(1000);
  Queue<std::string> q;
  for (auto _ : state) {
    for (const auto& k : keys) q.add(k);
    for (size_t i = 0; i < keys.size(); ++i) q.done(*q.get());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(keys.size()));
}
BENCHMARK(BM_AddGetDoneSingleThread);

}  // namespace
}  // namespace vc::kube::workqueue
