#pragma once
// The JobFlow controller's prober (--jobflow-probes, probes.h): runs the network checks a
// waiting step needs on its own thread, so a slow or silent pod never holds the controller's
// worker, and keeps each result for `fresh` (5 s) for the plan to read. When a check ends, the
// flows that asked for it are woken (notify); a flow whose check failed asks again once the
// result has gone stale, so a port is tried about every 5 s while a step waits on it.
//
// A check lists the task's pods from the API server (by the job-name and task-spec labels: one
// List per check, only while a step waits on it) and probes each pod's IP; the first failure
// fails the check. Counted in vc_cpp_jobflow_probe_checks_total{kind, result}.
//
// Threads: fresh_results() and request() from any thread; notify runs on the prober's thread.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/kube/result.h"
#include "controllers/jobflow/probes.h"

namespace vc::controllers::jobflow {

struct ProberOptions {
  std::chrono::milliseconds timeout{1000};  // per connection or request
  std::chrono::milliseconds fresh{5000};    // how long a result stands
  // Seams for tests; null = the steady clock, and the probes of probe_net.h.
  std::function<std::chrono::steady_clock::time_point()> now;
  std::function<std::string(const ProbeCheck&, const std::string& ip)> probe_ip;
};

class Prober {
 public:
  // The task's pods as a List, for a namespace and label selector.
  using ListPods = std::function<kube::Result<nlohmann::json>(const std::string& ns,
                                                              const std::string& selector)>;
  using Notify = std::function<void(const std::string& flow_key)>;

  Prober(ListPods list_pods, Notify notify, ProberOptions options = {});
  ~Prober();
  Prober(const Prober&) = delete;
  Prober& operator=(const Prober&) = delete;

  void start();
  void stop();  // idempotent; drops what is queued
  // Whether stop() has begun (it may still be waiting for a check in progress to end).
  bool stopping();

  // Every result younger than `fresh`, by check key.
  ProbeResults fresh_results();
  // Queues each check that has no fresh result and is not queued yet; flow_key is woken when it
  // ends.
  void request(const std::vector<ProbeCheck>& checks, const std::string& flow_key);
  // Runs one check now on the caller's thread: "" passed, else why not.
  std::string run(const ProbeCheck& check);

 private:
  using TimePoint = std::chrono::steady_clock::time_point;
  struct Result {
    bool passed = false;
    TimePoint at;
  };
  struct Queued {
    ProbeCheck check;
    std::set<std::string> flows;
  };
  TimePoint now() const;
  void loop();

  ListPods list_pods_;
  Notify notify_;
  ProberOptions options_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Result> results_;
  std::map<std::string, std::string> last_error_;  // for logging a change once
  std::deque<std::string> order_;
  std::map<std::string, Queued> queued_;
  std::string running_key_;              // the check being run, "" when none
  std::set<std::string> running_flows_;  // flows that asked for it meanwhile
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace vc::controllers::jobflow
