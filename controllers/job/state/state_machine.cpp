#include "controllers/job/state/state_machine.h"

#include <array>
#include <cstddef>
#include <cstdint>

#include "controllers/job/model/request.h"

namespace vc::controllers::job {
namespace {

// Columns of the action × state table, in the order of spec job-controller.md §2.4.
enum Column : std::size_t {
  kRestartJob,
  kRestartTarget,  // RestartTask, RestartPod, RestartPartition
  kAbortJob,
  kTerminateJob,
  kCompleteJob,
  kResumeJob,
  kSyncJob,
  kOther,  // EnqueueJob and any unrecognised string, "" included
  kColumns
};

Column column_of(std::string_view action) {
  if (action == action::kRestartJob) return kRestartJob;
  if (action == action::kRestartTask || action == action::kRestartPod ||
      action == action::kRestartPartition) {
    return kRestartTarget;
  }
  if (action == action::kAbortJob) return kAbortJob;
  if (action == action::kTerminateJob) return kTerminateJob;
  if (action == action::kCompleteJob) return kCompleteJob;
  if (action == action::kResumeJob) return kResumeJob;
  if (action == action::kSyncJob) return kSyncJob;
  return kOther;
}

// Shorthands so each row of the table reads like the spec's.
constexpr Operation S(StatusRule rule) {
  return {OpKind::Sync, Retain::None, rule};
}
constexpr Operation K(Retain retain, StatusRule rule) {
  return {OpKind::KillJob, retain, rule};
}
constexpr Operation KT(StatusRule rule) {
  return {OpKind::KillTarget, Retain::None, rule};
}

constexpr Retain kNo = Retain::None;
constexpr Retain kSoft = Retain::Soft;
constexpr StatusRule kNoRule = StatusRule::None;
constexpr StatusRule kToRestart = StatusRule::ToRestarting;
constexpr StatusRule kToAbort = StatusRule::ToAborting;
constexpr StatusRule kToTerm = StatusRule::ToTerminating;
constexpr StatusRule kToComplete = StatusRule::ToCompleting;
constexpr StatusRule kP = StatusRule::PendingRule;
constexpr StatusRule kRn = StatusRule::RunningRule;
constexpr StatusRule kR = StatusRule::RestartingRule;
constexpr StatusRule kA = StatusRule::AbortedRule;
constexpr StatusRule kC = StatusRule::CompletedRule;
constexpr StatusRule kT = StatusRule::TerminatedRule;

constexpr std::size_t kStates = static_cast<std::size_t>(StateKind::Finished) + 1;

// Volcano's table, (!) cells included: in Restarting, Abort/Terminate/Complete/Resume only re-kill
// and re-evaluate R (spec job-controller.md §8.8); only SyncJob syncs there. Rows in StateKind
// order, columns in Column order.
// clang-format off
constexpr std::array<std::array<Operation, kColumns>, kStates> kTable = {{
  //               RestartJob            RestartTask/Pod/Part.  AbortJob             TerminateJob         CompleteJob              ResumeJob                SyncJob             other
  /* Pending */    {{K(kNo, kToRestart),  KT(kToRestart),        K(kSoft, kToAbort),  K(kSoft, kToTerm),   K(kSoft, kToComplete),   S(kP),                   S(kP),              S(kP)}},
  /* Running */    {{K(kNo, kToRestart),  KT(kToRestart),        K(kSoft, kToAbort),  K(kSoft, kToTerm),   K(kSoft, kToComplete),   S(kRn),                  S(kRn),             S(kRn)}},
  /* Restarting */ {{K(kNo, kR),          KT(kR),                K(kNo, kR),          K(kNo, kR),          K(kNo, kR),              K(kNo, kR),              S(kR),              K(kNo, kR)}},
  /* Aborting */   {{K(kSoft, kA),        K(kSoft, kA),          K(kSoft, kA),        K(kSoft, kA),        K(kSoft, kA),            K(kSoft, kToRestart),    K(kSoft, kA),       K(kSoft, kA)}},
  /* Aborted */    {{K(kSoft, kNoRule),   K(kSoft, kNoRule),     K(kSoft, kNoRule),   K(kSoft, kNoRule),   K(kSoft, kNoRule),       K(kSoft, kToRestart),    K(kSoft, kNoRule),  K(kSoft, kNoRule)}},
  /* Completing */ {{K(kSoft, kC),        K(kSoft, kC),          K(kSoft, kC),        K(kSoft, kC),        K(kSoft, kC),            K(kSoft, kC),            K(kSoft, kC),       K(kSoft, kC)}},
  /* Terminating */{{K(kSoft, kT),        K(kSoft, kT),          K(kSoft, kT),        K(kSoft, kT),        K(kSoft, kT),            K(kSoft, kT),            K(kSoft, kT),       K(kSoft, kT)}},
  /* Finished */   {{K(kSoft, kNoRule),   K(kSoft, kNoRule),     K(kSoft, kNoRule),   K(kSoft, kNoRule),   K(kSoft, kNoRule),       K(kSoft, kNoRule),       K(kSoft, kNoRule),  K(kSoft, kNoRule)}},
}};
// clang-format on

// Σ (task.minAvailable ?? task.replicas), Go's TotalTaskMinAvailable.
std::int64_t sum_task_min_available(const JobSpec& spec) {
  std::int64_t total = 0;
  for (const auto& t : spec.tasks) total += t.min_available.value_or(t.replicas);
  return total;
}

std::int32_t succeeded_of(const JobStatus& status, const std::string& task) {
  auto it = status.task_status_count.find(task);
  if (it == status.task_status_count.end()) return 0;
  auto phase_it = it->second.find("Succeeded");
  return phase_it == it->second.end() ? 0 : phase_it->second;
}

RuleOutcome to_phase(JobStatus& status, const char* next) {
  status.phase = next;
  return {.changed = true,
          .completed = status.phase == phase::kCompleted,
          .failed = status.phase == phase::kFailed};
}

// Rn (spec job-controller.md §2.3): the branches in Volcano's order.
RuleOutcome running_rule(const JobSpec& spec, JobStatus& status) {
  // 64-bit sums: validated specs never overflow int32, and hostile ones must not be UB.
  const std::int64_t replicas = spec.total_replicas();
  // Scaled down to zero: keep the current phase.
  if (replicas == 0) return {};
  if (spec.min_success && status.succeeded >= *spec.min_success) {
    return to_phase(status, phase::kCompleted);
  }
  if (std::int64_t{status.succeeded} + status.failed == replicas) {
    if (spec.min_available >= sum_task_min_available(spec)) {
      for (const auto& task : spec.tasks) {
        if (!task.min_available) continue;
        if (!status.task_status_count.contains(task.name)) continue;
        if (succeeded_of(status, task.name) < *task.min_available) {
          return to_phase(status, phase::kFailed);
        }
      }
    }
    if (spec.min_success && status.succeeded < *spec.min_success) {
      return to_phase(status, phase::kFailed);
    }
    if (status.succeeded >= spec.min_available) return to_phase(status, phase::kCompleted);
    return to_phase(status, phase::kFailed);
  }
  if (status.pending > replicas - spec.min_available) return to_phase(status, phase::kPending);
  return {};
}

// R (spec job-controller.md §2.3): compares with status.minAvailable, not the spec's.
RuleOutcome restarting_rule(const JobSpec& spec, JobStatus& status) {
  if (status.retry_count >= spec.max_retry) return to_phase(status, phase::kFailed);
  if (std::int64_t{spec.total_replicas()} - status.terminating >= status.min_available) {
    return to_phase(status, phase::kPending);
  }
  return {};
}

// A / C / T: wait until no pod is alive or still terminating.
RuleOutcome drain_rule(JobStatus& status, const char* drained) {
  if (status.terminating != 0 || status.pending != 0 || status.running != 0) return {};
  return to_phase(status, drained);
}

}  // namespace

StateKind state_of(std::string_view phase) {
  if (phase == phase::kRunning) return StateKind::Running;
  if (phase == phase::kRestarting) return StateKind::Restarting;
  if (phase == phase::kAborting) return StateKind::Aborting;
  if (phase == phase::kAborted) return StateKind::Aborted;
  if (phase == phase::kCompleting) return StateKind::Completing;
  if (phase == phase::kTerminating) return StateKind::Terminating;
  if (phase == phase::kCompleted || phase == phase::kFailed || phase == phase::kTerminated) {
    return StateKind::Finished;
  }
  return StateKind::Pending;
}

std::string_view to_string(StateKind state) {
  switch (state) {
    case StateKind::Pending:
      return "pending";
    case StateKind::Running:
      return "running";
    case StateKind::Restarting:
      return "restarting";
    case StateKind::Aborting:
      return "aborting";
    case StateKind::Aborted:
      return "aborted";
    case StateKind::Completing:
      return "completing";
    case StateKind::Terminating:
      return "terminating";
    case StateKind::Finished:
      return "finished";
  }
  return "unknown";
}

std::string_view to_string(StatusRule rule) {
  switch (rule) {
    case StatusRule::None:
      return "none";
    case StatusRule::ToRestarting:
      return "toRestarting";
    case StatusRule::ToAborting:
      return "toAborting";
    case StatusRule::ToTerminating:
      return "toTerminating";
    case StatusRule::ToCompleting:
      return "toCompleting";
    case StatusRule::PendingRule:
      return "P";
    case StatusRule::RunningRule:
      return "Rn";
    case StatusRule::RestartingRule:
      return "R";
    case StatusRule::AbortedRule:
      return "A";
    case StatusRule::CompletedRule:
      return "C";
    case StatusRule::TerminatedRule:
      return "T";
  }
  return "unknown";
}

Operation resolve_operation(StateKind state, std::string_view action) {
  return kTable[static_cast<std::size_t>(state)][column_of(action)];
}

Retain effective_retain(Retain requested, const JobSpec& spec, const JobStatus& status) {
  if (status.retry_count >= spec.max_retry - 1) return Retain::Soft;
  return requested;
}

RuleOutcome apply_rule(StatusRule rule, const JobSpec& spec, JobStatus& status) {
  switch (rule) {
    case StatusRule::None:
      return {};
    case StatusRule::ToRestarting:
      status.retry_count += 1;
      return to_phase(status, phase::kRestarting);
    case StatusRule::ToAborting:
      return to_phase(status, phase::kAborting);
    case StatusRule::ToTerminating:
      return to_phase(status, phase::kTerminating);
    case StatusRule::ToCompleting:
      return to_phase(status, phase::kCompleting);
    case StatusRule::PendingRule:
      if (spec.min_available <= std::int64_t{status.running} + status.succeeded + status.failed) {
        return to_phase(status, phase::kRunning);
      }
      return {};
    case StatusRule::RunningRule:
      return running_rule(spec, status);
    case StatusRule::RestartingRule:
      return restarting_rule(spec, status);
    case StatusRule::AbortedRule:
      return drain_rule(status, phase::kAborted);
    case StatusRule::CompletedRule:
      return drain_rule(status, phase::kCompleted);
    case StatusRule::TerminatedRule:
      return drain_rule(status, phase::kTerminated);
  }
  return {};
}

}  // namespace vc::controllers::job
