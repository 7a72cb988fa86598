#pragma once
// Runs n independent calls with at most `width` at a time and waits for all of them: the pod
// creations and deletions of one sync (spec job-controller.md §4.2 steps 7-8, where Volcano starts
// one goroutine per pod; here the concurrency is bounded). The calling thread takes part; a fixed
// set of helper threads, shared by every worker, runs the rest. Threads are started once: starting
// three per job sync cost more CPU than the pod requests they made, and every new thread grew the
// process's memory.
//
// The caller's kube::FaultScope is current on the helpers while they run its fn.
//
// Threads: fn is called concurrently from up to `width` threads with distinct indices and must
// not throw. parallel_for may be called from any number of threads at once.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace vc::controllers::job {

class ParallelPool {
 public:
  // helpers: threads that help callers (0: every call runs inline on its caller).
  explicit ParallelPool(std::size_t helpers);
  ~ParallelPool();  // waits for the helpers; no parallel_for may be running
  ParallelPool(const ParallelPool&) = delete;
  ParallelPool& operator=(const ParallelPool&) = delete;

  void parallel_for(std::size_t n, std::size_t width, const std::function<void(std::size_t)>& fn);

 private:
  struct Batch;
  static void drain(Batch& batch);
  void help();

  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Batch>> tickets_;  // one entry per helper a batch may use
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace vc::controllers::job
