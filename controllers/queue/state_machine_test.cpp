#include "controllers/queue/state_machine.h"

#include <gtest/gtest.h>

#include <string>

namespace vc::controllers::queue {
namespace {

struct Row {
  const char* state;
  const char* action;
  Procedure procedure;
  // The resulting status.state without and with PodGroups in the queue.
  const char* result_empty;
  const char* result_with_podgroups;
};

// The table of spec controller-manager.md §2.5, one row per cell ("Bogus" stands for any other
// action).
const Row kRows[] = {
    {"", "OpenQueue", Procedure::Sync, "Open", "Open"},
    {"", "CloseQueue", Procedure::Close, "Closed", "Closing"},
    {"", "SyncQueue", Procedure::Sync, "Open", "Open"},
    {"Open", "OpenQueue", Procedure::Sync, "Open", "Open"},
    {"Open", "CloseQueue", Procedure::Close, "Closed", "Closing"},
    {"Open", "SyncQueue", Procedure::Sync, "Open", "Open"},
    {"Open", "Bogus", Procedure::Sync, "Open", "Open"},
    {"Closed", "OpenQueue", Procedure::Open, "Open", "Open"},
    {"Closed", "CloseQueue", Procedure::Sync, "Closed", "Closed"},
    {"Closed", "SyncQueue", Procedure::Sync, "Closed", "Closed"},
    {"Closed", "Bogus", Procedure::Sync, "Closed", "Closed"},
    {"Closing", "OpenQueue", Procedure::Open, "Open", "Open"},
    {"Closing", "CloseQueue", Procedure::Sync, "Closed", "Closing"},
    {"Closing", "SyncQueue", Procedure::Sync, "Closed", "Closing"},
    {"Closing", "Bogus", Procedure::Sync, "Closed", "Closing"},
    {"Unknown", "OpenQueue", Procedure::Open, "Open", "Open"},
    {"Unknown", "CloseQueue", Procedure::Close, "Closed", "Closing"},
    {"Unknown", "SyncQueue", Procedure::Sync, "Unknown", "Unknown"},
    {"Unknown", "Bogus", Procedure::Sync, "Unknown", "Unknown"},
};

TEST(QueueStateMachine, EveryCellOfTheSpecTable) {
  for (const Row& row : kRows) {
    SCOPED_TRACE(std::string(row.state) + " x " + row.action);
    auto state = parse_state(row.state);
    ASSERT_TRUE(state.has_value());
    const Transition t = transition(*state, row.action);
    EXPECT_EQ(to_string(t.procedure), std::string(to_string(row.procedure)));
    EXPECT_STREQ(to_string(resolve(t.target, false)), row.result_empty);
    EXPECT_STREQ(to_string(resolve(t.target, true)), row.result_with_podgroups);
  }
}

TEST(QueueStateMachine, EmptyStateReadsAsOpenAndOtherStringsAreInvalid) {
  EXPECT_EQ(parse_state(""), QueueState::Open);
  EXPECT_EQ(parse_state("Closing"), QueueState::Closing);
  EXPECT_FALSE(parse_state("open").has_value());
  EXPECT_FALSE(parse_state("Paused").has_value());
}

TEST(QueueStateMachine, ActionsAreMatchedExactly) {
  // Commands carry the action verbatim; a lower-case one is "anything else".
  EXPECT_EQ(transition(QueueState::Open, "closequeue").procedure, Procedure::Sync);
  EXPECT_EQ(transition(QueueState::Closed, "openqueue").procedure, Procedure::Sync);
}

TEST(QueueStateMachine, ClosedOrClosing) {
  EXPECT_TRUE(is_closed_or_closing("Closed"));
  EXPECT_TRUE(is_closed_or_closing("Closing"));
  EXPECT_FALSE(is_closed_or_closing("Open"));
  EXPECT_FALSE(is_closed_or_closing(""));
  EXPECT_FALSE(is_closed_or_closing("Unknown"));
}

}  // namespace
}  // namespace vc::controllers::queue
