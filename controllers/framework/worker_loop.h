#pragma once
// The worker loop every controller runs over its RateLimitingQueue<Key>, as Kubernetes controllers
// do: pop a key, reconcile it, then forget it on success or re-add it rate-limited on failure, at
// most max_requeue times (spec controller-manager.md §1.2 --max-requeue-num, §1.11), counting only
// the failures that are about the object (retry_policy.h).
//
//   Workers workers = run_workers(queue, 5, [this](const Key& key) { return sync(key); },
//                                 {.name = "queue-controller", .max_requeue =
//                                 opts.max_requeue_num});
//   ...
//   workers.stop();   // shuts the queue down, lets each worker finish its key, joins
//
// Retry policy for a key whose reconcile returned an error (retry_policy.h decides): each
// reconcile runs inside a kube::FaultScope, so the loop sees whether its API calls failed
// transiently (5xx, 429, timeouts) or something below it threw.
//   transient -> add_rate_limited, waiting at most transient_max_delay; never dropped;
//   exception -> add_rate_limited; never dropped (our bug: the object must not pay for it);
//   otherwise (counted) -> while max_requeue < 0 (unlimited) or the key's counted failures since
//   its last success < max_requeue, add_rate_limited; else the key is forgotten and dropped with
//   a log line (and on_drop is called), so 0 drops it on its first counted failure.
// Every failure grows the key's backoff (queue.num_requeues); only counted ones bring the drop.
// requeue_after(d) forgets the key's backoff and re-adds it once d has passed.
// A reconcile that throws is a bug: it is logged at error level and retried as an exception.
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
#include <type_traits>
#include <utility>
#include <vector>

#include "common/kube/fault_scope.h"
#include "common/kube/workqueue/rate_limiting_queue.h"
#include "controllers/framework/retry_policy.h"

namespace vc::controllers {

class ReconcileResult {
 public:
  enum class Kind { Ok, Error, RequeueAfter };

  static ReconcileResult ok() { return ReconcileResult(Kind::Ok, {}, {}); }
  // failure: how the error counts (retry_policy.h); the loop raises it to Transient or Exception
  // when the reconcile's calls saw such faults.
  static ReconcileResult error(std::string message, FailureClass failure = FailureClass::Counted) {
    return ReconcileResult(Kind::Error, std::move(message), {}, failure);
  }
  static ReconcileResult requeue_after(std::chrono::milliseconds delay) {
    return ReconcileResult(Kind::RequeueAfter, {}, delay);
  }

  Kind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  std::chrono::milliseconds delay() const { return delay_; }
  FailureClass failure() const { return failure_; }

 private:
  ReconcileResult(Kind kind, std::string message, std::chrono::milliseconds delay,
                  FailureClass failure = FailureClass::Counted)
      : kind_(kind), message_(std::move(message)), delay_(delay), failure_(failure) {}
  Kind kind_;
  std::string message_;
  std::chrono::milliseconds delay_;
  FailureClass failure_;
};

// Reconciles one key of the queue.
template <class Key>
using ReconcileFn = std::function<ReconcileResult(const Key& key)>;
// Called for a key dropped after its last allowed failure, with that failure's message.
template <class Key>
using DropFn = std::function<void(const Key& key, const std::string& error)>;

template <class Key>
struct WorkerOptions {
  std::string name = {};     // for log lines, e.g. "queue-controller"
  int max_requeue = -1;      // < 0 unlimited; 0 drops a key on its first failure
  DropFn<Key> on_drop = {};  // optional
  // Threads are named "w<first_index + i>:<name>" (cut to 15 bytes): a controller that runs one
  // worker per queue over several queues numbers them on.
  int first_index = 0;
  // The longest wait before retrying a key that failed transiently (--transient-retry-max-delay).
  std::chrono::milliseconds transient_max_delay = std::chrono::seconds(30);
  // Counted failures per key; shared by the copies of these options (the workers of a queue).
  std::shared_ptr<FailureCounts> counted_failures = std::make_shared<FailureCounts>();
};

// Owns the worker threads of one queue.
class Workers {
 public:
  Workers();
  // Adopts threads that work a queue; stop_queue shuts that queue down.
  Workers(std::function<void()> stop_queue, std::vector<std::thread> threads);
  Workers(Workers&&) noexcept;
  Workers& operator=(Workers&&) noexcept;
  ~Workers();  // stop()

  // Shuts the queue down (no new keys), lets each worker finish the key it holds, joins them.
  // Concurrent callers all return after the join.
  void stop();
  // Threads started and not yet joined.
  std::size_t size() const;

 private:
  struct State {
    std::mutex mu;  // guards threads, held through the join
    std::function<void()> stop_queue;
    std::vector<std::thread> threads;
  };
  std::unique_ptr<State> state_;  // null only in a moved-from object
};

namespace worker_detail {
// The key-independent halves of the loop, compiled once in worker_loop.cpp. key is key_text().
ReconcileResult reconcile_or_report(const std::function<ReconcileResult()>& reconcile,
                                    const std::string& controller, const std::string& key);
void log_retry(const std::string& controller, const std::string& key, int requeues,
               const std::string& error);
void log_drop(const std::string& controller, const std::string& key, int requeues, int max_requeue,
              const std::string& error);
// The retry decision for a failed reconcile of key (key_text), with its log lines and metrics;
// updates counts.
RetryDecision after_failure(const ReconcileResult& result, const kube::FaultScope& scope,
                            const std::string& controller, const std::string& key, int max_requeue,
                            FailureCounts& counts);
std::string worker_thread_name(int index, const std::string& controller);
void name_this_thread(const std::string& name);
}  // namespace worker_detail

// One iteration of the loop, for callers that drive it themselves (and for tests): takes a key,
// reconciles it and applies the retry policy. False once the queue has shut down.
template <class Key, class Hash>
bool process_next(kube::workqueue::RateLimitingQueue<Key, Hash>& queue,
                  const std::type_identity_t<ReconcileFn<Key>>& reconcile,
                  const std::type_identity_t<WorkerOptions<Key>>& options) {
  auto key = queue.get();
  if (!key) return false;
  FailureCounts& counts = *options.counted_failures;
  kube::FaultScope scope;  // what the reconcile's calls saw
  const ReconcileResult result = worker_detail::reconcile_or_report(
      [&] { return reconcile(*key); }, options.name, kube::workqueue::key_text(*key));
  switch (result.kind()) {
    case ReconcileResult::Kind::Ok:
      queue.forget(*key);
      if (counts.any()) counts.forget(kube::workqueue::key_text(*key));
      break;
    case ReconcileResult::Kind::RequeueAfter:
      queue.forget(*key);
      if (counts.any()) counts.forget(kube::workqueue::key_text(*key));
      queue.add_after(*key, result.delay());
      break;
    case ReconcileResult::Kind::Error: {
      const RetryDecision decision =
          worker_detail::after_failure(result, scope, options.name, kube::workqueue::key_text(*key),
                                       options.max_requeue, counts);
      if (decision.action == RetryAction::RetryCapped) {
        queue.add_rate_limited(*key, std::chrono::duration_cast<kube::workqueue::Duration>(
                                         options.transient_max_delay));
      } else if (decision.action == RetryAction::Retry) {
        queue.add_rate_limited(*key);
      } else {
        queue.forget(*key);
        if (options.on_drop) options.on_drop(*key, result.message());
      }
      break;
    }
  }
  queue.done(*key);
  return true;
}

// Starts n (at least one) threads that process keys of queue until it shuts down. queue must
// outlive the returned Workers' stop().
template <class Key, class Hash>
Workers run_workers(kube::workqueue::RateLimitingQueue<Key, Hash>& queue, int n,
                    std::type_identity_t<ReconcileFn<Key>> reconcile,
                    std::type_identity_t<WorkerOptions<Key>> options = {}) {
  // Shared by the threads; the last one to finish releases it.
  auto shared = std::make_shared<std::pair<ReconcileFn<Key>, WorkerOptions<Key>>>(
      std::move(reconcile), std::move(options));
  std::vector<std::thread> threads;
  const int count = n < 1 ? 1 : n;
  for (int i = 0; i < count; ++i) {
    threads.emplace_back([&queue, shared, i] {
      worker_detail::name_this_thread(
          worker_detail::worker_thread_name(shared->second.first_index + i, shared->second.name));
      while (process_next(queue, shared->first, shared->second)) {
      }
    });
  }
  return Workers([&queue] { queue.shutdown(); }, std::move(threads));
}

}  // namespace vc::controllers
