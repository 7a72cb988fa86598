#include "controllers/framework/worker_loop.h"

#include <exception>
#include <utility>

#include "common/log/log.h"
#include "common/process/thread_name.h"

namespace vc::controllers {
namespace {

ReconcileResult call(const ReconcileFn& reconcile, const std::string& key,
                     const WorkerOptions& options) {
  try {
    return reconcile(key);
  } catch (const std::exception& e) {
    VC_LOG_ERROR("reconcile threw; this is a bug", kv("controller", options.name), kv("key", key),
                 kv("err", e.what()));
    return ReconcileResult::error(std::string("reconcile threw: ") + e.what());
  } catch (...) {
    VC_LOG_ERROR("reconcile threw a non-exception; this is a bug", kv("controller", options.name),
                 kv("key", key));
    return ReconcileResult::error("reconcile threw");
  }
}

void handle_error(kube::workqueue::RateLimitingQueue& queue, const std::string& key,
                  const std::string& message, const WorkerOptions& options) {
  const int requeues = queue.num_requeues(key);
  if (options.max_requeue < 0 || requeues < options.max_requeue) {
    VC_LOG_DEBUG("reconcile failed, retrying", kv("controller", options.name), kv("key", key),
                 kv("requeues", requeues), kv("err", message));
    queue.add_rate_limited(key);
    return;
  }
  queue.forget(key);
  VC_LOG_WARN("dropping key out of the work queue after too many failures",
              kv("controller", options.name), kv("key", key), kv("requeues", requeues),
              kv("max_requeue", options.max_requeue), kv("err", message));
  if (options.on_drop) options.on_drop(key, message);
}

}  // namespace

bool process_next(kube::workqueue::RateLimitingQueue& queue, const ReconcileFn& reconcile,
                  const WorkerOptions& options) {
  auto key = queue.get();
  if (!key) return false;
  const ReconcileResult result = call(reconcile, *key, options);
  switch (result.kind()) {
    case ReconcileResult::Kind::Ok:
      queue.forget(*key);
      break;
    case ReconcileResult::Kind::RequeueAfter:
      queue.forget(*key);
      queue.add_after(*key, result.delay());
      break;
    case ReconcileResult::Kind::Error:
      handle_error(queue, *key, result.message(), options);
      break;
  }
  queue.done(*key);
  return true;
}

Workers run_workers(kube::workqueue::RateLimitingQueue& queue, int n, ReconcileFn reconcile,
                    WorkerOptions options) {
  Workers workers;
  std::lock_guard lock(workers.state_->mu);
  workers.state_->queue = &queue;
  // Shared by the threads; the last one to finish releases it.
  auto shared = std::make_shared<std::pair<ReconcileFn, WorkerOptions>>(std::move(reconcile),
                                                                        std::move(options));
  const int count = n < 1 ? 1 : n;
  for (int i = 0; i < count; ++i) {
    workers.state_->threads.emplace_back([&queue, shared, i] {
      set_thread_name("w" + std::to_string(shared->second.first_index + i) + ":" +
                      shared->second.name);
      while (process_next(queue, shared->first, shared->second)) {
      }
    });
  }
  return workers;
}

Workers::Workers() : state_(std::make_unique<State>()) {}

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
  if (state_->queue) state_->queue->shutdown();
  for (auto& t : state_->threads) t.join();
  state_->threads.clear();
}

std::size_t Workers::size() const {
  if (!state_) return 0;
  std::lock_guard lock(state_->mu);
  return state_->threads.size();
}

}  // namespace vc::controllers
