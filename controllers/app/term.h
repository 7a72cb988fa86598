#pragma once
// Term: one leadership term of the controller-manager (see controllers/framework/controller.h for
// the lifecycle). Everything a term creates is its own: a fresh SharedInformerFactory, an event
// recorder (component vc-controller-manager) and a new instance of every enabled controller, so
// that nothing (cache, queue, backoff) carries over from one term into the next.
//
//   Term term(client, options, selection.enabled, settings);
//   if (term.start(stop)) term.run();      // initialise, start informers, wait for sync, run
//   ...
//   term.stop();                           // controllers first, then informers, then events
//
// Thread-safety: start, run and stop are called by one thread (the manager's control thread), in
// that order; stop may follow start without run. synced() may be called from any thread.

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "common/kube/cache/factory.h"
#include "common/kube/client.h"
#include "common/kube/events/recorder.h"
#include "controllers/framework/controller.h"
#include "controllers/framework/registry.h"

namespace vc::controllers::app {

inline constexpr const char* kComponent = "vc-controller-manager";

struct TermSettings {
  // While informers have not synced, how often the wait is logged with what is missing.
  std::chrono::milliseconds sync_log_period{std::chrono::seconds(30)};
  // How long stopping the event recorder may spend sending queued events.
  std::chrono::milliseconds event_drain{std::chrono::seconds(2)};
  // Called with the name of an enabled controller whose factory returned null.
  std::function<void(const std::string& name)> on_not_implemented;
};

class Term {
 public:
  Term(kube::Client& client, const ControllerOptions& options,
       const std::vector<Registration>& enabled, TermSettings settings);
  ~Term();  // stop()
  Term(const Term&) = delete;
  Term& operator=(const Term&) = delete;

  // Builds and initialises the controllers, starts the informers they asked for and waits until
  // every one has synced. False when stop was requested first (nothing may run then).
  bool start(std::stop_token stop);
  // Starts every initialised controller's workers.
  void run();
  // Stops the controllers (each lets its workers finish their key), then the informers, then the
  // recorder. Idempotent.
  void stop();

  bool synced() const { return synced_.load(); }
  // Names of the controllers that initialised, in start order.
  std::vector<std::string> controllers() const;

 private:
  kube::Client& client_;
  const ControllerOptions& options_;
  const std::vector<Registration> enabled_;
  const TermSettings settings_;

  std::unique_ptr<kube::cache::SharedInformerFactory> informers_;
  std::unique_ptr<kube::events::AsyncEventRecorder> recorder_;
  std::unique_ptr<ControllerContext> context_;
  std::vector<std::unique_ptr<Controller>> controllers_;
  bool running_ = false;
  bool stopped_ = false;
  std::atomic<bool> synced_{false};
};

}  // namespace vc::controllers::app
