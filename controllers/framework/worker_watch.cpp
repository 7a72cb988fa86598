#include "controllers/framework/worker_watch.h"

#include <utility>

namespace vc::controllers {

std::uint64_t WorkerWatch::begin(std::string controller, std::string key, Clock::time_point now) {
  std::lock_guard lock(mu_);
  const std::uint64_t token = next_++;
  running_.emplace(token, Running{std::move(controller), std::move(key), now});
  return token;
}

void WorkerWatch::end(std::uint64_t token) {
  std::lock_guard lock(mu_);
  running_.erase(token);
}

std::optional<WorkerWatch::Running> WorkerWatch::stuck(Clock::time_point now,
                                                       Clock::duration limit) const {
  std::lock_guard lock(mu_);
  // Tokens grow with time only per caller's clock; scan for the oldest rather than trust order.
  const Running* oldest = nullptr;
  for (const auto& [token, run] : running_) {
    if (!oldest || run.since < oldest->since) oldest = &run;
  }
  if (!oldest || now - oldest->since <= limit) return std::nullopt;
  return *oldest;
}

std::size_t WorkerWatch::running() const {
  std::lock_guard lock(mu_);
  return running_.size();
}

WorkerWatch& worker_watch() {
  static WorkerWatch watch;
  return watch;
}

}  // namespace vc::controllers
