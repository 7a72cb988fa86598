#pragma once
// The queue state machine as a table (spec controller-manager.md §2.5): for the queue's current
// status.state and the request's action, which procedure runs and which state it aims for.
//
//   state \ action | OpenQueue       | CloseQueue               | anything else
//   ---------------+-----------------+--------------------------+--------------------------
//   "" / Open      | SYNC -> Open    | CLOSE -> Closed|Closing* | SYNC -> Open
//   Closed         | OPEN -> Open    | SYNC  -> Closed          | SYNC -> Closed
//   Closing        | OPEN -> Open    | SYNC  -> Closed|Closing* | SYNC -> Closed|Closing*
//   Unknown        | OPEN -> Open    | CLOSE -> Closed|Closing* | SYNC -> Unknown
//
//   * Closed when the queue has no PodGroups (of any phase), else Closing.
//
// Pure functions; callable from any thread.

#include <optional>
#include <string>
#include <string_view>

namespace vc::controllers::queue {

enum class QueueState { Open, Closed, Closing, Unknown };
enum class Procedure { Sync, Open, Close };
// What a procedure aims for; ClosedIfEmpty resolves with the queue's PodGroups.
enum class Target { Open, Closed, ClosedIfEmpty, Unknown };

const char* to_string(QueueState s);
const char* to_string(Procedure p);
const char* to_string(Target t);

// status.state -> state; "" reads as Open. Null for any other string (the request then fails
// with "queue <name> state <state> is invalid").
std::optional<QueueState> parse_state(std::string_view state);

struct Transition {
  Procedure procedure;
  Target target;
};

// The table above. action is the request's action verbatim: anything other than OpenQueue and
// CloseQueue is treated as SyncQueue.
Transition transition(QueueState state, std::string_view action);

// The state a target means for a queue with or without PodGroups.
QueueState resolve(Target target, bool has_podgroups);

bool is_closed_or_closing(std::string_view state);

}  // namespace vc::controllers::queue
