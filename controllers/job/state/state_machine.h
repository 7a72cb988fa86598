#pragma once
// The job state machine (spec job-controller.md §2): which state object a phase selects, which
// primitive operation (sync, full kill, targeted kill) and status rule an action runs in that
// state, and what each status rule does to a freshly counted status. Volcano writes one Go type
// per state with a switch per action; here the whole thing is one table (state_machine.cpp) so it
// can be read, and tested, cell by cell.
//
// The executor (the job controller) runs the operation: it counts pods into a status, calls
// apply_rule, and writes the result. Nothing here does I/O.
//
// Threads: pure functions; call from any thread.

#include <string_view>

#include "controllers/job/model/job.h"

namespace vc::controllers::job {

// The Go state object a phase selects (spec job-controller.md §2.1).
enum class StateKind {
  Pending,
  Running,
  Restarting,
  Aborting,
  Aborted,
  Completing,
  Terminating,
  Finished
};

// "", "Pending" and any unknown phase are Pending; Completed/Failed/Terminated are Finished.
StateKind state_of(std::string_view phase);
std::string_view to_string(StateKind state);

// Which pod phases a full kill keeps (spec job-controller.md §2.2):
// None = {}, Soft = {Succeeded, Failed}.
enum class Retain { None, Soft };

enum class OpKind {
  Sync,        // syncJob (spec job-controller.md §4.2)
  KillJob,     // killPods, full mode (spec job-controller.md §4.3): version+1, retain set applies
  KillTarget,  // killPods, target mode: the request's task/pod/partition only
};

// The status closures of spec job-controller.md §2.3. None = no closure (phase never changes).
enum class StatusRule {
  None,
  ToRestarting,
  ToAborting,
  ToTerminating,
  ToCompleting,
  PendingRule,     // P
  RunningRule,     // Rn
  RestartingRule,  // R
  AbortedRule,     // A (drain, then Aborted)
  CompletedRule,   // C (drain, then Completed)
  TerminatedRule,  // T (drain, then Terminated)
};
std::string_view to_string(StatusRule rule);

struct Operation {
  OpKind kind;
  Retain retain;  // meaningful for KillJob only (None elsewhere)
  StatusRule rule;
  friend bool operator==(const Operation&, const Operation&) = default;
};

// The cell of the action × state table (spec job-controller.md §2.4). Any action string is
// accepted: unknown ones (including "" and EnqueueJob) take the "other" column.
Operation resolve_operation(StateKind state, std::string_view action);

// The retain set a full kill really uses: Volcano forces Soft on the "last retry", i.e. when
// status.retryCount >= spec.maxRetry - 1 (spec job-controller.md §2.2), whatever the table says.
Retain effective_retain(Retain requested, const JobSpec& spec, const JobStatus& status);

struct RuleOutcome {
  bool changed = false;    // the closure returned true: new lastTransitionTime + condition
  bool completed = false;  // increment volcano_job_completed_phase_count
  bool failed = false;     // increment volcano_job_failed_phase_count
  friend bool operator==(const RuleOutcome&, const RuleOutcome&) = default;
};

// Applies the rule to status, whose counters (pending, running, succeeded, failed, terminating,
// taskStatusCount) the caller has already filled (spec job-controller.md §2.3).
RuleOutcome apply_rule(StatusRule rule, const JobSpec& spec, JobStatus& status);

}  // namespace vc::controllers::job
