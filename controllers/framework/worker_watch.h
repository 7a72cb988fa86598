#pragma once
// WorkerWatch: which reconciles are running and since when, so that the controller-manager's
// liveness can fail when a worker is stuck in one sync (a hung call, a deadlock) instead of
// answering "ok" while that key, and every key waiting behind it on the same worker, makes no
// progress. The kubelet then restarts the container, which also hands leadership over.
//
// Every worker loop (worker_loop.h) reports each reconcile to worker_watch(), the process's
// instance; tests make their own with explicit times.
//
// Invariant: running_ holds exactly the reconciles that began and have not ended.
//
// Thread-safety: every method may be called from any thread.

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace vc::controllers {

class WorkerWatch {
 public:
  using Clock = std::chrono::steady_clock;

  struct Running {
    std::string controller;
    std::string key;
    Clock::time_point since;
  };

  // A reconcile of key by controller begins at now; returns the token for end().
  std::uint64_t begin(std::string controller, std::string key, Clock::time_point now);
  void end(std::uint64_t token);

  // The longest-running reconcile that began more than limit before now, if any.
  std::optional<Running> stuck(Clock::time_point now, Clock::duration limit) const;
  std::size_t running() const;

 private:
  mutable std::mutex mu_;
  std::uint64_t next_ = 0;
  std::map<std::uint64_t, Running> running_;  // by token
};

// The process's instance, fed by every worker loop.
WorkerWatch& worker_watch();

}  // namespace vc::controllers
