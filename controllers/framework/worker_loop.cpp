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
  // Reported to the liveness check, which fails when one reconcile runs too long.
  struct Watched {
    std::uint64_t token;
    ~Watched() { worker_watch().end(token); }
  } watched{worker_watch().begin(controller, key, WorkerWatch::Clock::now())};
  try {
    return reconcile();
  } catch (const std::exception& e) {
    VC_LOG_ERROR("reconcile threw; this is a bug", kv("controller", controller), kv("key", key),
                 kv("err", e.what()));
    return ReconcileResult::error(std::string("reconcile threw: ") + e.what());
  } catch (...) {
    VC_LOG_ERROR("reconcile threw a non-exception; this is a bug", kv("controller", controller),
                 kv("key", key));
    return ReconcileResult::error("reconcile threw");
  }
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
