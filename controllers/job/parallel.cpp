#include "controllers/job/parallel.h"

#include <algorithm>
#include <atomic>

#include "common/kube/fault_scope.h"
#include "common/process/thread_name.h"

namespace vc::controllers::job {

// One parallel_for call. Helpers may pop a ticket after the batch is done: they find no index
// left and never touch fn, whose owner (the caller's frame) may be gone by then.
struct ParallelPool::Batch {
  const std::function<void(std::size_t)>* fn = nullptr;
  std::size_t n = 0;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::mutex mu;
  std::condition_variable finished;
};

ParallelPool::ParallelPool(std::size_t helpers) {
  threads_.reserve(helpers);
  for (std::size_t i = 0; i < helpers; ++i)
    threads_.emplace_back([this] {
      set_thread_name("pod-calls");
      help();
    });
}

ParallelPool::~ParallelPool() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void ParallelPool::drain(Batch& batch) {
  for (std::size_t i = batch.next.fetch_add(1); i < batch.n; i = batch.next.fetch_add(1)) {
    (*batch.fn)(i);
    if (batch.done.fetch_add(1) + 1 == batch.n) {
      std::lock_guard lock(batch.mu);
      batch.finished.notify_all();
    }
  }
}

void ParallelPool::help() {
  for (;;) {
    std::shared_ptr<Batch> batch;
    {
      std::unique_lock lock(mu_);
      wake_.wait(lock, [&] { return stopping_ || !tickets_.empty(); });
      if (tickets_.empty()) return;  // stopping
      batch = std::move(tickets_.front());
      tickets_.pop_front();
    }
    drain(*batch);
  }
}

void ParallelPool::parallel_for(std::size_t n, std::size_t width,
                                const std::function<void(std::size_t)>& fn) {
  if (n == 0) return;
  // The helpers' API calls belong to the caller's reconcile: they note their faults in its scope.
  kube::FaultScope* scope = kube::FaultScope::current();
  const std::function<void(std::size_t)> in_scope = [&fn, scope](std::size_t i) {
    kube::FaultScope::Adopt adopt(scope);
    fn(i);
  };
  auto batch = std::make_shared<Batch>();
  batch->fn = scope != nullptr ? &in_scope : &fn;
  batch->n = n;
  const std::size_t helpers =
      std::min({n, std::max<std::size_t>(width, 1), threads_.size() + 1}) - 1;
  if (helpers > 0) {
    {
      std::lock_guard lock(mu_);
      for (std::size_t i = 0; i < helpers; ++i) tickets_.push_back(batch);
    }
    if (helpers == 1) {
      wake_.notify_one();
    } else {
      wake_.notify_all();
    }
  }
  drain(*batch);
  std::unique_lock lock(batch->mu);
  batch->finished.wait(lock, [&] { return batch->done.load() == n; });
}

}  // namespace vc::controllers::job
