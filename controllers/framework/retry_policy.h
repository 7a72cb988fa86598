#pragma once
// What the worker loop does with a key whose reconcile failed, as plain functions of plain data
// (worker_loop.h applies them). Volcano counts every failure toward --max-requeue-num; we count
// only the failures that are about the object (docs/compat.md):
//   - Counted: the API server refused the request (a 4xx: invalid, forbidden, not found ...) or
//     the reconciler found the object wanting (its queue is missing, a plugin refused it). After
//     max_requeue of them in a row the key is dropped, and the Job controller terminates the Job.
//   - Transient: a call failed because the API server or the path to it was unwell (a 5xx, e.g.
//     another admission webhook that is down; 429; timeouts; connection failures;
//     kube::is_transient). The object is fine; retrying it later may succeed unchanged. Retried
//     without end, with the queue's backoff capped at transient_max_delay so that work resumes
//     soon after the outage ends, counted in vc_cpp_controller_transient_errors_total{controller}
//     and logged at most once per controller every kTransientLogInterval.
//   - Exception: the reconcile, or code below it, threw. That is our bug, not the object's: the
//     user's Job must not be terminated for it. Retried without end with the queue's full backoff
//     (a bug tends to repeat, so it is retried ever more slowly), logged at error level each time,
//     counted in vc_cpp_controller_reconcile_exceptions_total{controller}.
// A failure that saw both a transient error and a counted one is Transient: the sync could not
// finish, and once the outage is over the counted error, if it persists, is counted on its own.
//
// Threads: the functions are pure; FailureCounts and the report functions may be called from any
// thread.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace vc::controllers {

enum class FailureClass { Counted, Transient, Exception };

const char* to_string(FailureClass c);

// The class of a failed reconcile: what the reconciler declared, raised by what its calls noted
// in its kube::FaultScope (Exception over Transient over Counted).
FailureClass classify_failure(FailureClass declared, int transient_errors, int exceptions);

enum class RetryAction {
  Retry,        // re-add with the queue's backoff
  RetryCapped,  // re-add with the queue's backoff, waiting at most transient_max_delay
  Drop,         // forget the key; its last allowed counted failure has happened
};

struct RetryDecision {
  RetryAction action = RetryAction::Retry;
  bool counted = false;  // this failure counts toward max_requeue
};

// counted_before: the key's counted failures since its last success. max_requeue < 0 is
// unlimited; 0 drops a key on its first counted failure.
RetryDecision decide_retry(FailureClass c, int counted_before, int max_requeue);

// The counted failures of each key since its last success or drop; keys are key_text()s.
class FailureCounts {
 public:
  int get(const std::string& key) const;
  void add(const std::string& key);
  void forget(const std::string& key);
  // False when no key has a counted failure: success can skip building the key's text.
  bool any() const { return size_.load(std::memory_order_relaxed) != 0; }

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::string, int> counts_;
  std::atomic<std::size_t> size_{0};
};

// Per controller, at most one log line about transient failures in this interval; the line says
// how many were not logged since the previous one (each is counted in the metric).
inline constexpr std::chrono::seconds kTransientLogInterval{10};

// Counts the failure in its metric and logs it (transient ones rate-limited).
void report_uncounted_failure(const std::string& controller, const std::string& key, FailureClass c,
                              const std::string& error);

}  // namespace vc::controllers
