#pragma once
// VerdictMonitor: the executor of the Job controller's verdict pass (verdict_plan.h). Every
// period, on its own thread, it takes the Jobs from the controller's cache, reads and diagnoses
// the jobs the plan picks with `vc-cpp explain`'s reader and diagnosis
// (controllers/explain/read_snapshot.h, diagnose.h), records a Warning event on a Job whose
// verdict turned to a stop, and publishes the gauge of jobs per verdict and queue.
//
// The cluster-wide lists (queues, PriorityClasses, and nodes when a picked job waits for room)
// are read once per pass, not once per job; the pods bound to nodes come from the controller's
// pod cache (bound_pods.h). A read the controller may not make (Forbidden) leaves that job's
// verdict as it was: a diagnosis missing the nodes would name a stop that is not there.
//
// Threads: start() and stop() from one thread; the passes run on the monitor's own thread.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "common/api/time.h"
#include "common/kube/cache/store.h"
#include "common/kube/client.h"
#include "common/kube/events/recorder.h"
#include "controllers/job/verdict/verdict_plan.h"

namespace vc::controllers::job::verdict {

struct MonitorOptions {
  std::chrono::nanoseconds period = std::chrono::seconds(30);  // 0: no passes
  PassOptions pass;
};

class VerdictMonitor {
 public:
  // jobs: the job informer's store (Job views, controllers/job/model/job_json.h); pods: the pod
  // informer's (PodViews), which gives the room taken on each node without a pod list.
  VerdictMonitor(kube::Client& client, kube::events::EventRecorder& recorder,
                 const kube::cache::Store& jobs, const kube::cache::Store& pods,
                 MonitorOptions options);
  ~VerdictMonitor();
  VerdictMonitor(const VerdictMonitor&) = delete;
  VerdictMonitor& operator=(const VerdictMonitor&) = delete;

  // Starts the thread; its first pass comes one period later. Does nothing when period is 0.
  void start();
  // Ends the pass under way after its current job, joins the thread, removes the gauge's series.
  void stop();
  // One pass, on the caller's thread (the thread's loop calls it). Its reads are spread over the
  // period; stop() ends it early.
  void pass();

 private:
  // Waits until `when` or stop(); true when stopped.
  bool pause_until(std::chrono::steady_clock::time_point when);
  void loop();

  kube::Client& client_;
  kube::events::EventRecorder& recorder_;
  const kube::cache::Store& jobs_;
  const kube::cache::Store& pods_;
  const MonitorOptions options_;
  Memories memory_;  // only the pass's thread touches it

  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace vc::controllers::job::verdict
