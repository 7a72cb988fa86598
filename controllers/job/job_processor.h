#pragma once
// JobProcessor: what the job controller does with one request or one Command, without queues,
// informers or threads (spec job-controller.md §1.5, §6, §7.3). process() reads the job from the
// JobStore, applies the lifecycle policies (state/policy.h), arms a delayed action or resolves the
// state machine's operation (state/state_machine.h), and has the JobSyncer carry it out through
// its ObjectWriter. JobController (job_controller.cpp) owns the queues, the informers and the
// timer and calls this from its workers; tests call it directly on in-memory stores and assert
// the ordered API writes.
//
// Threads: process/give_up for one job are called by one thread at a time (requests are sharded
// by job); process_command by the command worker. Different jobs run concurrently.

#include <chrono>
#include <functional>
#include <string>

#include "common/kube/cache/store.h"
#include "common/kube/events/recorder.h"
#include "common/kube/object_writer.h"
#include "controllers/framework/worker_loop.h"
#include "controllers/job/job_store.h"
#include "controllers/job/job_syncer.h"
#include "controllers/job/model/request.h"
#include "controllers/job/state/delayed_actions.h"

namespace vc::controllers::job {

struct ProcessorHooks {
  // Queues a request on its job's shard (a Command's request).
  std::function<void(const Request&)> enqueue;
  // A delayed action was armed with a due time earlier than any before it may have been.
  std::function<void()> wake_timer;
  // The clock of delayed actions' due times.
  std::function<std::chrono::steady_clock::time_point()> now = [] {
    return std::chrono::steady_clock::now();
  };
};

class JobProcessor {
 public:
  // commands: the Command informer's store; null without the QueueCommandSync gate (then
  // process_command is never called).
  JobProcessor(JobStore& jobs, JobSyncer& syncer, DelayedActions& delayed,
               kube::events::EventRecorder& recorder, kube::ObjectWriter& writer,
               const kube::cache::Store* commands, ProcessorHooks hooks);

  // One request (spec job-controller.md §1.5).
  ReconcileResult process(const Request& req);
  // The request failed --max-requeue-num times in a row: terminate the job
  // (spec job-controller.md §7.3).
  void give_up(const Request& req, const std::string& error);
  // A bus Command for a job, by its cache key (spec job-controller.md §6): delete it first, so it
  // runs at most once, then queue the job's request carrying its action.
  ReconcileResult process_command(const std::string& key);

 private:
  void event(const Job& job, const std::string& message);

  JobStore& jobs_;
  JobSyncer& syncer_;
  DelayedActions& delayed_;
  kube::events::EventRecorder& recorder_;
  kube::ObjectWriter& writer_;
  const kube::cache::Store* commands_;
  ProcessorHooks hooks_;
};

}  // namespace vc::controllers::job
