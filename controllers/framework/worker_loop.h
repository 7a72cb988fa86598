#pragma once
// The worker loop every controller runs, as Kubernetes controllers do: pop a key, reconcile it,
// then forget it on success or re-add it rate-limited on failure, at most max_requeue times
// (spec controller-manager.md §1.2 --max-requeue-num, §1.11).
//
//   Workers workers = run_workers(queue, 5, [this](const std::string& key) { return sync(key); },
//                                 {.name = "queue-controller", .max_requeue =
//                                 opts.max_requeue_num});
//   ...
//   workers.stop();   // shuts the queue down, lets each worker finish its key, joins
//
// Retry policy for a key whose reconcile returned an error:
//   max_requeue < 0 (unlimited), or queue.num_requeues(key) < max_requeue -> add_rate_limited;
//   otherwise the key is forgotten and dropped with a log line (and on_drop is called), so 0
//   drops it on its first failure.
// requeue_after(d) forgets the key's backoff and re-adds it once d has passed.
// A reconcile that throws is a bug: it is logged at error level and counted as a failure.
//
// Thread-safety: reconcile and on_drop run on the worker threads, several at once for different
// keys (the queue never hands one key to two workers). stop() may be called from any thread but
// a worker's, more than once; the destructor stops.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/kube/workqueue/rate_limiting_queue.h"

namespace vc::controllers {

class ReconcileResult {
 public:
  enum class Kind { Ok, Error, RequeueAfter };

  static ReconcileResult ok() { return ReconcileResult(Kind::Ok, {}, {}); }
  static ReconcileResult error(std::string message) {
    return ReconcileResult(Kind::Error, std::move(message), {});
  }
  static ReconcileResult requeue_after(std::chrono::milliseconds delay) {
    return ReconcileResult(Kind::RequeueAfter, {}, delay);
  }

  Kind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  std::chrono::milliseconds delay() const { return delay_; }

 private:
  ReconcileResult(Kind kind, std::string message, std::chrono::milliseconds delay)
      : kind_(kind), message_(std::move(message)), delay_(delay) {}
  Kind kind_;
  std::string message_;
  std::chrono::milliseconds delay_;
};

using ReconcileFn = std::function<ReconcileResult(const std::string& key)>;
// Called for a key dropped after its last allowed failure, with that failure's message.
using DropFn = std::function<void(const std::string& key, const std::string& error)>;

struct WorkerOptions {
  std::string name = {};  // for log lines, e.g. "queue-controller"
  int max_requeue = -1;   // < 0 unlimited; 0 drops a key on its first failure
  DropFn on_drop = {};    // optional
  // Threads are named "w<first_index + i>:<name>" (cut to 15 bytes): a controller that runs one
  // worker per queue over several queues numbers them on.
  int first_index = 0;
};

// Owns the worker threads of one queue.
class Workers {
 public:
  Workers();
  Workers(Workers&&) noexcept;
  Workers& operator=(Workers&&) noexcept;
  ~Workers();  // stop()

  // Shuts the queue down (no new keys), lets each worker finish the key it holds, joins them.
  // Concurrent callers all return after the join.
  void stop();
  // Threads started and not yet joined.
  std::size_t size() const;

 private:
  friend Workers run_workers(kube::workqueue::RateLimitingQueue& queue, int n,
                             ReconcileFn reconcile, WorkerOptions options);
  struct State {
    std::mutex mu;  // guards threads, held through the join
    kube::workqueue::RateLimitingQueue* queue = nullptr;
    std::vector<std::thread> threads;
  };
  std::unique_ptr<State> state_;  // null only in a moved-from object
};

// Starts n (at least one) threads that process keys of queue until it shuts down. queue must
// outlive the returned Workers' stop().
Workers run_workers(kube::workqueue::RateLimitingQueue& queue, int n, ReconcileFn reconcile,
                    WorkerOptions options = {});

// One iteration of the loop, for callers that drive it themselves (and for tests): takes a key,
// reconciles it and applies the retry policy. False once the queue has shut down.
bool process_next(kube::workqueue::RateLimitingQueue& queue, const ReconcileFn& reconcile,
                  const WorkerOptions& options);

}  // namespace vc::controllers
