#pragma once
// ControllerManager: runs one Term (see term.h) per leadership term, on its own control thread,
// and guarantees that a term's controllers have stopped before leadership can pass on.
//
//   ControllerManager manager(client, options, selection.enabled, settings);
//   manager.start();
//   elector callbacks: on_started_leading -> manager.on_started_leading()
//                      on_stopped_leading -> manager.on_stopped_leading()   // blocks until stopped
//   manager.shutdown();
//
// Why a control thread: the elector's callbacks must return quickly while it renews, and
// building a term (informer lists, cache sync) takes long. Losing the lease is the exception:
// on_stopped_leading blocks the elector until every controller has stopped, so the elector
// neither re-acquires nor (on shutdown) releases the Lease while our controllers may still
// write. With the default 15 s lease and 10 s renew deadline, the controllers have about 5 s to
// stop before another replica may take the Lease.
//
// Thread-safety: every method may be called from any thread; on_stopped_leading and shutdown
// block and must not be called from the control thread.

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "controllers/app/term.h"

namespace vc::controllers::app {

struct ManagerSettings {
  TermSettings term;
  // Called on the control thread after a term has started its controllers, with the term's
  // number (1, 2, ...) and the controllers it runs.
  std::function<void(int term, const std::vector<std::string>& controllers)> on_term_running;
  // Called on the control thread after a term has stopped.
  std::function<void(int term)> on_term_stopped;
};

class ControllerManager {
 public:
  ControllerManager(kube::Client& client, ControllerOptions options,
                    std::vector<Registration> enabled, ManagerSettings settings = {});
  ~ControllerManager();  // shutdown()
  ControllerManager(const ControllerManager&) = delete;
  ControllerManager& operator=(const ControllerManager&) = delete;

  void start();  // starts the control thread
  // A term should run. Returns at once.
  void on_started_leading();
  // No term may run: aborts a term still starting, stops a running one, and returns once its
  // controllers have stopped.
  void on_stopped_leading();
  // Stops the current term and the control thread. Idempotent.
  void shutdown();

  // For /readyz: false only while a term is starting (caches not synced yet).
  bool ready() const;
  int terms_started() const;

 private:
  void loop();
  void report_not_implemented(const std::string& name);

  kube::Client& client_;
  const ControllerOptions options_;
  const std::vector<Registration> enabled_;
  ManagerSettings settings_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool leading_ = false;      // a term should run
  bool term_active_ = false;  // the control thread owns a term (starting, running or stopping)
  bool shutdown_ = false;
  int terms_ = 0;
  std::stop_source term_stop_;  // aborts the cache-sync wait of the term being started
  std::atomic<bool> starting_{false};

  std::set<std::string> reported_;  // control thread only: names reported as not implemented
  std::mutex thread_mu_;
  std::thread thread_;
};

}  // namespace vc::controllers::app
