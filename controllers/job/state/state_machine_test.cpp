#include "controllers/job/state/state_machine.h"

#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "controllers/job/model/request.h"

namespace vc::controllers::job {
namespace {

// The spec's notation for a cell: S(rule), K(retain,rule), KT(rule).
std::string notation(const Operation& op) {
  std::string rule(to_string(op.rule));
  switch (op.kind) {
    case OpKind::Sync:
      return "S(" + rule + ")";
    case OpKind::KillTarget:
      return "KT(" + rule + ")";
    case OpKind::KillJob:
      return std::string("K(") + (op.retain == Retain::Soft ? "Soft" : "None") + "," + rule + ")";
  }
  return "?";
}

// ---- state_of (spec job-controller.md §2.1) --------------------------------------------------

class StateOfTest : public ::testing::TestWithParam<std::tuple<std::string, StateKind>> {};

TEST_P(StateOfTest, PhaseSelectsTheSpecState) {
  const auto& [phase, state] = GetParam();
  EXPECT_EQ(to_string(state_of(phase)), to_string(state)) << "phase '" << phase << "'";
}

INSTANTIATE_TEST_SUITE_P(
    Phases, StateOfTest,
    ::testing::Values(
        std::tuple{"", StateKind::Pending}, std::tuple{"Pending", StateKind::Pending},
        std::tuple{"Bogus", StateKind::Pending},
        std::tuple{"pending", StateKind::Pending},  // case matters, as in Go
        std::tuple{"Running", StateKind::Running}, std::tuple{"Restarting", StateKind::Restarting},
        std::tuple{"Aborting", StateKind::Aborting}, std::tuple{"Aborted", StateKind::Aborted},
        std::tuple{"Completing", StateKind::Completing},
        std::tuple{"Terminating", StateKind::Terminating},
        std::tuple{"Completed", StateKind::Finished}, std::tuple{"Failed", StateKind::Finished},
        std::tuple{"Terminated", StateKind::Finished}));

// ---- action × state table (spec job-controller.md §2.4), every cell -----------------------------

struct Cell {
  std::string phase;
  std::string action;
  std::string expected;
};

std::ostream& operator<<(std::ostream& os, const Cell& c) {
  return os << "phase '" << c.phase << "' action '" << c.action << "'";
}

// Rows transcribed from the spec: one phase standing for each state, then the columns
// RestartJob, RestartTask, RestartPod, RestartPartition, AbortJob, TerminateJob, CompleteJob,
// ResumeJob, SyncJob, EnqueueJob, "", and an unknown string.
const std::vector<std::string> kActions = {
    "RestartJob",  "RestartTask", "RestartPod", "RestartPartition", "AbortJob", "TerminateJob",
    "CompleteJob", "ResumeJob",   "SyncJob",    "EnqueueJob",       "",         "DanceJob"};

const std::vector<std::pair<std::string, std::vector<std::string>>> kRows = {
    {"Pending",
     {"K(None,toRestarting)", "KT(toRestarting)", "KT(toRestarting)", "KT(toRestarting)",
      "K(Soft,toAborting)", "K(Soft,toTerminating)", "K(Soft,toCompleting)", "S(P)", "S(P)", "S(P)",
      "S(P)", "S(P)"}},
    {"",
     {"K(None,toRestarting)", "KT(toRestarting)", "KT(toRestarting)", "KT(toRestarting)",
      "K(Soft,toAborting)", "K(Soft,toTerminating)", "K(Soft,toCompleting)", "S(P)", "S(P)", "S(P)",
      "S(P)", "S(P)"}},
    {"Running",
     {"K(None,toRestarting)", "KT(toRestarting)", "KT(toRestarting)", "KT(toRestarting)",
      "K(Soft,toAborting)", "K(Soft,toTerminating)", "K(Soft,toCompleting)", "S(Rn)", "S(Rn)",
      "S(Rn)", "S(Rn)", "S(Rn)"}},
    {"Restarting",
     {"K(None,R)", "KT(R)", "KT(R)", "KT(R)", "K(None,R)", "K(None,R)", "K(None,R)", "K(None,R)",
      "S(R)", "K(None,R)", "K(None,R)", "K(None,R)"}},
    {"Aborting",
     {"K(Soft,A)", "K(Soft,A)", "K(Soft,A)", "K(Soft,A)", "K(Soft,A)", "K(Soft,A)", "K(Soft,A)",
      "K(Soft,toRestarting)", "K(Soft,A)", "K(Soft,A)", "K(Soft,A)", "K(Soft,A)"}},
    {"Aborted",
     {"K(Soft,none)", "K(Soft,none)", "K(Soft,none)", "K(Soft,none)", "K(Soft,none)",
      "K(Soft,none)", "K(Soft,none)", "K(Soft,toRestarting)", "K(Soft,none)", "K(Soft,none)",
      "K(Soft,none)", "K(Soft,none)"}},
    {"Completing", std::vector<std::string>(12, "K(Soft,C)")},
    {"Terminating", std::vector<std::string>(12, "K(Soft,T)")},
    {"Completed", std::vector<std::string>(12, "K(Soft,none)")},
    {"Failed", std::vector<std::string>(12, "K(Soft,none)")},
    {"Terminated", std::vector<std::string>(12, "K(Soft,none)")},
};

std::vector<Cell> all_cells() {
  std::vector<Cell> cells;
  for (const auto& [phase, row] : kRows) {
    for (std::size_t i = 0; i < kActions.size(); ++i) cells.push_back({phase, kActions[i], row[i]});
  }
  return cells;
}

class ActionTableTest : public ::testing::TestWithParam<Cell> {};

TEST_P(ActionTableTest, CellMatchesVolcano) {
  const Cell& c = GetParam();
  EXPECT_EQ(notation(resolve_operation(state_of(c.phase), c.action)), c.expected);
}

// Test names such as Restarting_SyncJob; "" is spelled Empty.
std::string cell_name(const ::testing::TestParamInfo<Cell>& info) {
  auto word = [](const std::string& s) { return s.empty() ? std::string("Empty") : s; };
  return word(info.param.phase) + "_" + word(info.param.action);
}

INSTANTIATE_TEST_SUITE_P(EveryCell, ActionTableTest, ::testing::ValuesIn(all_cells()), cell_name);

TEST(ActionTable, TableCoversEveryRowAndColumn) {
  EXPECT_EQ(all_cells().size(), 11u * 12u);
}

// ---- effective_retain (spec job-controller.md §2.2 last-retry override) -------------------------

TEST(EffectiveRetain, LastRetryForcesSoft) {
  JobSpec spec;
  spec.max_retry = 3;
  JobStatus status;
  status.retry_count = 1;
  EXPECT_EQ(effective_retain(Retain::None, spec, status), Retain::None);
  status.retry_count = 2;  // >= maxRetry - 1
  EXPECT_EQ(effective_retain(Retain::None, spec, status), Retain::Soft);
  EXPECT_EQ(effective_retain(Retain::Soft, spec, status), Retain::Soft);
}

TEST(EffectiveRetain, MaxRetryZeroAlwaysSoft) {
  JobSpec spec;
  spec.max_retry = 0;
  JobStatus status;
  EXPECT_EQ(effective_retain(Retain::None, spec, status), Retain::Soft);
}

// ---- apply_rule (spec job-controller.md §2.3)
// ---------------------------------------------------------------------------

TaskSpec task(std::string name, std::int32_t replicas,
              std::optional<std::int32_t> min_available = std::nullopt) {
  TaskSpec t;
  t.name = std::move(name);
  t.replicas = replicas;
  t.min_available = min_available;
  return t;
}

JobSpec spec_of(std::int32_t min_available, std::vector<TaskSpec> tasks) {
  JobSpec s;
  s.min_available = min_available;
  s.tasks = std::move(tasks);
  return s;
}

TEST(ApplyRule, NoneChangesNothing) {
  JobStatus status;
  status.phase = "Aborted";
  JobStatus before = status;
  EXPECT_EQ(apply_rule(StatusRule::None, JobSpec{}, status), RuleOutcome{});
  EXPECT_EQ(status, before);
}

TEST(ApplyRule, ToRestartingIncrementsRetryCount) {
  JobStatus status;
  status.phase = "Running";
  status.retry_count = 2;
  RuleOutcome out = apply_rule(StatusRule::ToRestarting, JobSpec{}, status);
  EXPECT_EQ(out, (RuleOutcome{.changed = true}));
  EXPECT_EQ(status.phase, "Restarting");
  EXPECT_EQ(status.retry_count, 3);
}

TEST(ApplyRule, ToAbortingTerminatingCompletingSetPhaseOnly) {
  for (auto [rule, phase] : {std::pair{StatusRule::ToAborting, "Aborting"},
                             std::pair{StatusRule::ToTerminating, "Terminating"},
                             std::pair{StatusRule::ToCompleting, "Completing"}}) {
    JobStatus status;
    status.phase = "Running";
    status.retry_count = 1;
    EXPECT_EQ(apply_rule(rule, JobSpec{}, status), RuleOutcome{.changed = true}) << phase;
    EXPECT_EQ(status.phase, phase);
    EXPECT_EQ(status.retry_count, 1);
  }
}

TEST(ApplyRule, PendingRuleRunsOnceMinAvailableAreUp) {
  JobSpec spec = spec_of(3, {task("t", 3)});
  JobStatus status;
  status.phase = "Pending";
  status.running = 1;
  status.succeeded = 1;
  EXPECT_EQ(apply_rule(StatusRule::PendingRule, spec, status), RuleOutcome{});
  EXPECT_EQ(status.phase, "Pending");
  status.failed = 1;  // running + succeeded + failed = 3
  EXPECT_EQ(apply_rule(StatusRule::PendingRule, spec, status), RuleOutcome{.changed = true});
  EXPECT_EQ(status.phase, "Running");
}

TEST(ApplyRule, PendingRuleWithMinAvailableZeroRunsAtOnce) {
  JobStatus status;
  EXPECT_TRUE(apply_rule(StatusRule::PendingRule, spec_of(0, {task("t", 2)}), status).changed);
  EXPECT_EQ(status.phase, "Running");
}

TEST(RunningRule, ZeroReplicasKeepsPhase) {
  JobStatus status;
  status.phase = "Running";
  status.pending = 5;
  EXPECT_EQ(apply_rule(StatusRule::RunningRule, spec_of(1, {task("t", 0)}), status), RuleOutcome{});
  EXPECT_EQ(status.phase, "Running");
}

TEST(RunningRule, MinSuccessReachedCompletes) {
  JobSpec spec = spec_of(4, {task("t", 4)});
  spec.min_success = 2;
  JobStatus status;
  status.phase = "Running";
  status.succeeded = 2;
  status.running = 2;
  EXPECT_EQ(apply_rule(StatusRule::RunningRule, spec, status),
            (RuleOutcome{.changed = true, .completed = true}));
  EXPECT_EQ(status.phase, "Completed");
}

TEST(RunningRule, AllFinishedTaskBelowItsMinAvailableFails) {
  // minAvailable 4 >= Σ(task minAvailable ?? replicas) = 2 + 2.
  JobSpec spec = spec_of(4, {task("a", 2, 2), task("b", 2)});
  JobStatus status;
  status.phase = "Running";
  status.succeeded = 3;
  status.failed = 1;
  status.task_status_count["a"] = {{"Succeeded", 1}, {"Failed", 1}};
  status.task_status_count["b"] = {{"Succeeded", 2}};
  EXPECT_EQ(apply_rule(StatusRule::RunningRule, spec, status),
            (RuleOutcome{.changed = true, .failed = true}));
  EXPECT_EQ(status.phase, "Failed");
}

TEST(RunningRule, TaskWithoutStatusCountEntryIsNotChecked) {
  JobSpec spec = spec_of(2, {task("a", 1, 1), task("b", 1, 1)});
  JobStatus status;
  status.phase = "Running";
  status.succeeded = 2;
  status.task_status_count["b"] = {{"Succeeded", 1}};  // "a" has no entry: skipped
  EXPECT_EQ(apply_rule(StatusRule::RunningRule, spec, status),
            (RuleOutcome{.changed = true, .completed = true}));
  EXPECT_EQ(status.phase, "Completed");
}

TEST(RunningRule, TaskCheckSkippedWhenJobMinAvailableBelowTaskSum) {
  // minAvailable 1 < Σ = 2: the per-task check is skipped; succeeded 1 >= 1 completes.
  JobSpec spec = spec_of(1, {task("a", 1, 1), task("b", 1, 1)});
  JobStatus status;
  status.phase = "Running";
  status.succeeded = 1;
  status.failed = 1;
  status.task_status_count["a"] = {{"Failed", 1}};
  status.task_status_count["b"] = {{"Succeeded", 1}};
  EXPECT_EQ(apply_rule(StatusRule::RunningRule, spec, status),
            (RuleOutcome{.changed = true, .completed = true}));
}

TEST(RunningRule, AllFinishedBelowMinSuccessFails) {
  JobSpec spec = spec_of(1, {task("t", 3)});
  spec.min_success = 4;  // never reachable: 3 replicas
  JobStatus status;
  status.phase = "Running";
  status.succeeded = 3;
  EXPECT_EQ(apply_rule(StatusRule::RunningRule, spec, status),
            (RuleOutcome{.changed = true, .failed = true}));
  EXPECT_EQ(status.phase, "Failed");
}

TEST(RunningRule, AllFinishedWithEnoughSucceededCompletes) {
  JobSpec spec = spec_of(2, {task("t", 3)});
  JobStatus status;
  status.phase = "Running";
  status.succeeded = 2;
  status.failed = 1;
  EXPECT_EQ(apply_rule(StatusRule::RunningRule, spec, status),
            (RuleOutcome{.changed = true, .completed = true}));
  EXPECT_EQ(status.phase, "Completed");
}

TEST(RunningRule, AllFinishedWithTooFewSucceededFails) {
  JobSpec spec = spec_of(2, {task("t", 3)});
  JobStatus status;
  status.phase = "Running";
  status.succeeded = 1;
  status.failed = 2;
  EXPECT_EQ(apply_rule(StatusRule::RunningRule, spec, status),
            (RuleOutcome{.changed = true, .failed = true}));
  EXPECT_EQ(status.phase, "Failed");
}

TEST(RunningRule, TooManyPendingFallsBackToPending) {
  JobSpec spec = spec_of(3, {task("t", 4)});
  JobStatus status;
  status.phase = "Running";
  status.running = 2;
  status.pending = 2;  // 2 > 4 - 3
  EXPECT_EQ(apply_rule(StatusRule::RunningRule, spec, status), RuleOutcome{.changed = true});
  EXPECT_EQ(status.phase, "Pending");
}

TEST(RunningRule, OtherwiseKeepsRunning) {
  JobSpec spec = spec_of(3, {task("t", 4)});
  JobStatus status;
  status.phase = "Running";
  status.running = 3;
  status.pending = 1;  // 1 > 1 is false
  EXPECT_EQ(apply_rule(StatusRule::RunningRule, spec, status), RuleOutcome{});
  EXPECT_EQ(status.phase, "Running");
}

TEST(RestartingRule, RetryCountAtMaxRetryFails) {
  JobSpec spec = spec_of(2, {task("t", 2)});
  spec.max_retry = 3;
  JobStatus status;
  status.phase = "Restarting";
  status.retry_count = 3;
  EXPECT_EQ(apply_rule(StatusRule::RestartingRule, spec, status),
            (RuleOutcome{.changed = true, .failed = true}));
  EXPECT_EQ(status.phase, "Failed");
}

TEST(RestartingRule, UsesStatusMinAvailableNotSpec) {
  JobSpec spec = spec_of(1, {task("t", 3)});
  spec.max_retry = 3;
  JobStatus status;
  status.phase = "Restarting";
  status.retry_count = 1;
  status.min_available = 3;
  status.terminating = 1;  // 3 - 1 < 3 although spec.minAvailable is 1
  EXPECT_EQ(apply_rule(StatusRule::RestartingRule, spec, status), RuleOutcome{});
  EXPECT_EQ(status.phase, "Restarting");
  status.terminating = 0;
  EXPECT_EQ(apply_rule(StatusRule::RestartingRule, spec, status), RuleOutcome{.changed = true});
  EXPECT_EQ(status.phase, "Pending");
}

class DrainRuleTest
    : public ::testing::TestWithParam<std::tuple<StatusRule, std::string, RuleOutcome>> {};

TEST_P(DrainRuleTest, WaitsForTerminatingPendingAndRunningToReachZero) {
  const auto& [rule, final_phase, outcome] = GetParam();
  for (int field = 0; field < 3; ++field) {
    JobStatus status;
    status.phase = "Draining";
    (field == 0 ? status.terminating : field == 1 ? status.pending : status.running) = 1;
    status.succeeded = 4;
    EXPECT_EQ(apply_rule(rule, JobSpec{}, status), RuleOutcome{}) << "field " << field;
    EXPECT_EQ(status.phase, "Draining");
  }
  JobStatus status;
  status.phase = "Draining";
  status.succeeded = 4;
  status.failed = 1;  // finished pods do not hold the drain
  EXPECT_EQ(apply_rule(rule, JobSpec{}, status), outcome);
  EXPECT_EQ(status.phase, final_phase);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, DrainRuleTest,
    ::testing::Values(std::tuple{StatusRule::AbortedRule, "Aborted", RuleOutcome{.changed = true}},
                      std::tuple{StatusRule::CompletedRule, "Completed",
                                 RuleOutcome{.changed = true, .completed = true}},
                      std::tuple{StatusRule::TerminatedRule, "Terminated",
                                 RuleOutcome{.changed = true}}));

}  // namespace
}  // namespace vc::controllers::job
