#pragma once
// The Job controller's verdict pass, as decisions on plain data. Every period the controller
// asks, for the jobs that have not started, the question `vc-cpp explain` answers (where did the
// job stop?), with the same diagnosis (controllers/explain/diagnose.h), and says the answer where
// users already look: a Warning event on the Job when its verdict turns to a stop, and a gauge
// of jobs per verdict and queue. Reading a job's objects costs the API server several requests,
// so a pass diagnoses a bounded number of jobs, the ones never diagnosed first; every other job
// takes its verdict from its phase or from its last diagnosis.
//
// Threads: pure functions; Memories belongs to the one thread that runs the passes.

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/api/time.h"
#include "controllers/explain/diagnose.h"

namespace vc::controllers::job::verdict {

using explain::Verdict;

// What the controller's cache says about one Job.
struct JobFacts {
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string queue;  // spec.queue; "default" when unset
  std::string phase;  // status.state.phase; "" for a job not yet seen by a controller
  std::optional<api::TimePoint> created;
};

// What the passes remember about one Job, by uid (a Job made again under the same name starts
// afresh).
struct Memory {
  std::optional<Verdict> verdict;           // the latest: from a diagnosis or from the phase
  int streak = 0;                           // how many observations in a row gave it
  std::optional<api::TimePoint> diagnosed;  // when it was last diagnosed
  std::optional<Verdict> announced;         // the stop the last event named, while it lasts
  std::optional<api::TimePoint> announced_at;

  // Takes v as the job's verdict; a job that leaves a stop forgets which stop was announced, so
  // a later stop is announced again.
  void observe(Verdict v);
};
using Memories = std::unordered_map<std::string, Memory>;

struct PassOptions {
  std::size_t max_diagnoses = 20;  // jobs read and diagnosed per pass
  // A job younger than this is not diagnosed: the controller and the scheduler take a few
  // seconds over a new job, and the diagnosis itself grants new objects as long.
  std::chrono::seconds grace{20};
  // At most one event per job in this long, however often its verdict changes.
  std::chrono::seconds announce_interval{std::chrono::minutes(10)};
};

// Whether a verdict is a stop worth a Warning: the job waits for capacity or cannot go on as
// written.
bool is_stop(Verdict v);

// The verdict a job's phase gives without reading anything: Finished for Completed; Failed for
// Failed, Aborted and Terminated; Progressing for a job past its start (Running, Restarting,
// Completing, ...). nullopt for a job not started ("" or Pending): only a diagnosis can say.
std::optional<Verdict> verdict_from_phase(std::string_view phase);

// The jobs to read and diagnose in this pass, at most options.max_diagnoses: jobs not started
// and older than the grace, the never-diagnosed first (oldest job first), then those diagnosed
// longest ago.
std::vector<const JobFacts*> pick_diagnoses(const std::vector<JobFacts>& jobs,
                                            const Memories& memory, api::TimePoint now,
                                            const PassOptions& options);

// After a diagnosis gave `verdict` (and memory observed it): whether to record an event about it
// now. True when the verdict is a stop that the previous diagnosis gave too (one diagnosis may
// catch a job the scheduler simply has not reached yet in a burst), it is not the stop last
// announced, and the job's last announcement is options.announce_interval old or more; then
// memory records the announcement.
bool should_announce(Memory& memory, Verdict verdict, api::TimePoint now,
                     const PassOptions& options);

// Jobs per (queue, verdict) for the gauge: a job's phase verdict, else its last diagnosis, else
// Progressing (not started and not diagnosed yet: young, or waiting for its turn).
std::map<std::pair<std::string, Verdict>, long> count_by_queue(const std::vector<JobFacts>& jobs,
                                                               const Memories& memory);

// Takes each job's phase verdict into its memory and drops the memory of jobs gone from the
// cache.
void settle(Memories& memory, const std::vector<JobFacts>& jobs);

}  // namespace vc::controllers::job::verdict
