#include "controllers/framework/worker_loop.h"

#include <exception>
#include <utility>

#include "common/log/log.h"
#include "common/process/thread_name.h"
#include "controllers/framework/worker_watch.h"

namespace vc::controllers {

namespace worker_detail {

ReconcileResult reconcile_or_report(const std::function<ReconcileResult()>& reconcile,
                                    const std::string& controller, const std::string& key) {
  // Reported to the liveness check, which fails when one reconcile runs too long. A throw is
  // logged with the key by after_failure (report_uncounted_failure), at error level.
  struct Watched {
    std::uint64_t token;
    ~Watched() { worker_watch().end(token); }
  } watched{worker_watch().begin(controller, key, WorkerWatch::Clock::now())};
  try {
    return reconcile();
  } catch (const std::exception& e) {
    return ReconcileResult::error(std::string("reconcile threw: ") + e.what(),
                                  FailureClass::Exception);
  } catch (...) {
    return ReconcileResult::error("reconcile threw a non-exception", FailureClass::Exception);
  }
}

RetryDecision after_failure(const ReconcileResult& result, const kube::FaultScope& scope,
                            const std::string& controller, const std::string& key, int max_requeue,
                            FailureCounts& counts) {
  const FailureClass failure =
      classify_failure(result.failure(), scope.transient_errors(), scope.exceptions());
  const int before = failure == FailureClass::Counted ? counts.get(key) : 0;
  const RetryDecision decision = decide_retry(failure, before, max_requeue);
  if (!decision.counted) {
    report_uncounted_failure(controller, key, failure, result.message());
  } else if (decision.action == RetryAction::Drop) {
    counts.forget(key);
    log_drop(controller, key, before, max_requeue, result.message());
  } else {
    counts.add(key);
    log_retry(controller, key, before, result.message());
  }
  return decision;
}

void log_retry(const std::string& controller, const std::string& key, int requeues,
               const std::string& error) {
  VC_LOG_DEBUG("reconcile failed, retrying", kv("controller", controller), kv("key", key),
               kv("requeues", requeues), kv("err", error));
}

void log_drop(const std::string& controller, const std::string& key, int requeues, int max_requeue,
              const std::string& error) {
  VC_LOG_WARN("dropping key out of the work queue after too many failures",
              kv("controller", controller), kv("key", key), kv("requeues", requeues),
              kv("max_requeue", max_requeue), kv("err", error));
}

std::string worker_thread_name(int index, const std::string& controller) {
  return "w" + std::to_string(index) + ":" + controller;
}

void name_this_thread(const std::string& name) {
  set_thread_name(name);
}

}  // namespace worker_detail

Workers::Workers() : state_(std::make_unique<State>()) {}

Workers::Workers(std::function<void()> stop_queue, std::vector<std::thread> threads)
    : state_(std::make_unique<State>()) {
  state_->stop_queue = std::move(stop_queue);
  state_->threads = std::move(threads);
}

Workers::Workers(Workers&& other) noexcept = default;

Workers& Workers::operator=(Workers&& other) noexcept {
  if (this != &other) {
    stop();
    state_ = std::move(other.state_);
  }
  return *this;
}

Workers::~Workers() {
  stop();
}

void Workers::stop() {
  if (!state_) return;
  std::lock_guard lock(state_->mu);
  if (state_->stop_queue) state_->stop_queue();
  for (auto& t : state_->threads) t.join();
  state_->threads.clear();
}

std::size_t Workers::size() const {
  if (!state_) return 0;
  std::lock_guard lock(state_->mu);
  return state_->threads.size();
}

}  // namespace vc::controllers
