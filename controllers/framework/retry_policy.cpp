#include "controllers/framework/retry_policy.h"

#include <map>

#include <prometheus/counter.h>
#include <prometheus/family.h>

#include "common/log/log.h"
#include "common/metrics/registry.h"

namespace vc::controllers {
namespace {

prometheus::Family<prometheus::Counter>& transient_errors() {
  static auto& f = prometheus::BuildCounter()
                       .Name("vc_cpp_controller_transient_errors_total")
                       .Help(
                           "Reconciles that failed on a transient API error (5xx, 429, timeout, "
                           "connection failure) and were retried without counting toward "
                           "--max-requeue-num, by controller")
                       .Register(vc::metrics::registry());
  return f;
}

prometheus::Family<prometheus::Counter>& reconcile_exceptions() {
  static auto& f = prometheus::BuildCounter()
                       .Name("vc_cpp_controller_reconcile_exceptions_total")
                       .Help(
                           "Reconciles that failed on a C++ exception (a bug) and were retried "
                           "without counting toward --max-requeue-num, by controller")
                       .Register(vc::metrics::registry());
  return f;
}

// When each controller last logged a transient failure, and how many it has not logged since.
class TransientLogThrottle {
 public:
  // The number of failures not logged before this one, or -1 when this one is not to be logged.
  long admit(const std::string& controller) {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(mu_);
    Entry& e = entries_[controller];
    if (e.logged && now - e.last < kTransientLogInterval) {
      ++e.suppressed;
      return -1;
    }
    const long suppressed = e.suppressed;
    e = Entry{.last = now, .suppressed = 0, .logged = true};
    return suppressed;
  }

 private:
  struct Entry {
    std::chrono::steady_clock::time_point last{};
    long suppressed = 0;
    bool logged = false;
  };
  std::mutex mu_;
  std::map<std::string, Entry> entries_;  // one per controller: a handful
};

TransientLogThrottle& throttle() {
  static TransientLogThrottle t;
  return t;
}

}  // namespace

const char* to_string(FailureClass c) {
  switch (c) {
    case FailureClass::Counted:
      return "counted";
    case FailureClass::Transient:
      return "transient";
    case FailureClass::Exception:
      return "exception";
  }
  return "unknown";
}

FailureClass classify_failure(FailureClass declared, int transient_errors, int exceptions) {
  if (declared == FailureClass::Exception || exceptions > 0) return FailureClass::Exception;
  if (declared == FailureClass::Transient || transient_errors > 0) return FailureClass::Transient;
  return FailureClass::Counted;
}

RetryDecision decide_retry(FailureClass c, int counted_before, int max_requeue) {
  switch (c) {
    case FailureClass::Transient:
      return {.action = RetryAction::RetryCapped, .counted = false};
    case FailureClass::Exception:
      return {.action = RetryAction::Retry, .counted = false};
    case FailureClass::Counted:
      break;
  }
  if (max_requeue < 0 || counted_before < max_requeue) {
    return {.action = RetryAction::Retry, .counted = true};
  }
  return {.action = RetryAction::Drop, .counted = true};
}

int FailureCounts::get(const std::string& key) const {
  std::lock_guard lock(mu_);
  auto it = counts_.find(key);
  return it == counts_.end() ? 0 : it->second;
}

void FailureCounts::add(const std::string& key) {
  std::lock_guard lock(mu_);
  ++counts_[key];
  size_.store(counts_.size(), std::memory_order_relaxed);
}

void FailureCounts::forget(const std::string& key) {
  std::lock_guard lock(mu_);
  counts_.erase(key);
  size_.store(counts_.size(), std::memory_order_relaxed);
}

void report_uncounted_failure(const std::string& controller, const std::string& key, FailureClass c,
                              const std::string& error) {
  if (c == FailureClass::Exception) {
    reconcile_exceptions().Add({{"controller", controller}}).Increment();
    VC_LOG_ERROR(
        "reconcile failed on an exception; this is a bug; retrying without counting it "
        "toward max_requeue",
        kv("controller", controller), kv("key", key), kv("err", error));
    return;
  }
  if (c != FailureClass::Transient) return;
  transient_errors().Add({{"controller", controller}}).Increment();
  if (const long suppressed = throttle().admit(controller); suppressed >= 0) {
    VC_LOG_WARN(
        "reconcile failed on a transient API error; retrying without counting it toward "
        "max_requeue",
        kv("controller", controller), kv("key", key), kv("err", error),
        kv("not_logged_since_last", suppressed));
  }
}

}  // namespace vc::controllers
