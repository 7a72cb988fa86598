#pragma once
// LeaderElector: leader election on a coordination.k8s.io/v1 Lease, so that of several replicas
// of a binary exactly one runs the controllers.
//
// The loop campaigns (one attempt every retry_period, jittered) until it holds the Lease, calls
// on_started_leading, then renews every retry_period. When no renewal has succeeded for
// renew_deadline, or the Lease is seen held by another live candidate, it calls
// on_stopped_leading and campaigns again. A renewal round's requests end at its renew deadline
// (so on_stopped_leading runs at the deadline, not a request timeout later), and only a leader
// renews from its last written object without reading the Lease first: a replica that stepped
// down reads before it writes, so it never sends a blind update. On stop() a leader calls
// on_stopped_leading, then releases the Lease (holder "", duration 1 s) so a successor does not
// wait out the lease. What each attempt decides is the pure function in decision.h.
//
// Give the elector its own Client, with request_timeout well below renew_deadline: a renewal must
// neither outlive the lease in a hung request nor queue behind a busy controller's rate limiter.
//
// Threads: start(), stop(), is_leader() and observed_leader() may be called from any thread. The
// callbacks run on the elector's thread, one at a time; they must return quickly (start work
// elsewhere), since renewals wait for them. try_acquire_or_renew() and release() are the single
// steps the loop makes; call them directly only while the loop is not running.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "common/kube/client.h"
#include "common/kube/leaderelection/decision.h"

namespace vc::kube::leaderelection {

// Time sources, injectable for tests. wall stamps acquireTime/renewTime; mono measures lease
// validity and the renew deadline, immune to wall-clock jumps.
struct Clock {
  std::function<WallTime()> wall = [] { return std::chrono::system_clock::now(); };
  std::function<MonoTime()> mono = [] { return std::chrono::steady_clock::now(); };
};

struct LeaderElectionConfig {
  std::string lease_namespace;
  std::string lease_name;
  std::string identity;  // see make_identity()
  std::chrono::seconds lease_duration{15};
  std::chrono::milliseconds renew_deadline{10000};
  std::chrono::milliseconds retry_period{2000};
  bool release_on_stop = true;
  Clock clock;
};

struct LeaderCallbacks {
  std::function<void()> on_started_leading;
  std::function<void()> on_stopped_leading;
  // A different identity (ours included) was seen holding the Lease.
  std::function<void(const std::string& identity)> on_new_leader;
};

class LeaderElector {
 public:
  // Throws std::invalid_argument unless lease_duration > renew_deadline > 1.2 * retry_period > 0
  // and namespace, name and identity are set (the same rules as client-go).
  LeaderElector(Client& client, LeaderElectionConfig config, LeaderCallbacks callbacks = {});
  ~LeaderElector();  // stop()
  LeaderElector(const LeaderElector&) = delete;
  LeaderElector& operator=(const LeaderElector&) = delete;

  void start();  // starts the loop's thread; throws std::logic_error when called twice
  // Ends the loop: releases the Lease when leading (and release_on_stop), calls
  // on_stopped_leading if it was leading, joins the thread. Idempotent. Not from a callback.
  void stop();

  // True between on_started_leading and on_stopped_leading.
  bool is_leader() const { return leading_.load(); }
  // The holder in the last Lease we read or wrote; "" when none.
  std::string observed_leader() const;

  // One attempt: create, take over or renew the Lease as decide() says. True when we hold it
  // afterwards. Errors are logged and return false. `by` bounds the attempt's requests: a
  // leader's renewal gives up at the renew deadline, its request reset, so it cannot land after
  // leadership has been handed over.
  bool try_acquire_or_renew(kube::CallDeadline by = {});
  // Steps down if we hold the Lease; true when there was nothing to release or it was released.
  bool release();

 private:
  void run(std::stop_token stop);
  bool campaign(std::stop_token stop);  // true once leading; false when stopped
  void lead(std::stop_token stop);      // returns when leadership ends
  void stop_leading(bool release_lease);
  bool sleep(std::stop_token stop, std::chrono::milliseconds d);
  void report_transition();
  // update or create, then remember
  bool write(const nlohmann::json& lease, Action action, kube::CallDeadline by = {});

  Client& client_;
  const LeaderElectionConfig config_;
  const LeaderCallbacks callbacks_;

  std::chrono::milliseconds standby_wait();
  std::mutex attempt_mu_;  // serialises attempts; guards the members below
  std::optional<Observed> observed_;
  std::optional<nlohmann::json> lease_;  // the object last read or written (its resourceVersion)
  // Our last write took the Lease and we have not stepped down since: the next renewal may
  // update from lease_ without reading first. Cleared by stop_leading.
  bool renew_blind_ = false;

  mutable std::mutex leader_mu_;  // guards observed_leader_
  std::string observed_leader_;
  std::string reported_leader_;  // elector thread only
  std::atomic<bool> leading_{false};

  std::mutex sleep_mu_;
  std::condition_variable_any sleep_cv_;
  std::mutex thread_mu_;  // guards started_ and thread_
  bool started_ = false;
  std::jthread thread_;
};

}  // namespace vc::kube::leaderelection
