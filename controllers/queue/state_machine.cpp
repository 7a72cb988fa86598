#include "controllers/queue/state_machine.h"

#include <stdexcept>
#include <string>

#include "controllers/queue/model.h"

namespace vc::controllers::queue {

namespace {

enum class ActionClass { Open, Close, Other };

ActionClass classify(std::string_view action) {
  if (action == kOpenQueueAction) return ActionClass::Open;
  if (action == kCloseQueueAction) return ActionClass::Close;
  return ActionClass::Other;
}

struct Row {
  QueueState state;
  Transition on_open;
  Transition on_close;
  Transition on_other;
};

// The table in the header, row for row.
constexpr Row kTable[] = {
    {QueueState::Open,
     {Procedure::Sync, Target::Open},
     {Procedure::Close, Target::ClosedIfEmpty},
     {Procedure::Sync, Target::Open}},
    {QueueState::Closed,
     {Procedure::Open, Target::Open},
     {Procedure::Sync, Target::Closed},
     {Procedure::Sync, Target::Closed}},
    {QueueState::Closing,
     {Procedure::Open, Target::Open},
     {Procedure::Sync, Target::ClosedIfEmpty},
     {Procedure::Sync, Target::ClosedIfEmpty}},
    {QueueState::Unknown,
     {Procedure::Open, Target::Open},
     {Procedure::Close, Target::ClosedIfEmpty},
     {Procedure::Sync, Target::Unknown}},
};

}  // namespace

const char* to_string(QueueState s) {
  switch (s) {
    case QueueState::Open:
      return "Open";
    case QueueState::Closed:
      return "Closed";
    case QueueState::Closing:
      return "Closing";
    case QueueState::Unknown:
      return "Unknown";
  }
  return "?";
}

const char* to_string(Procedure p) {
  switch (p) {
    case Procedure::Sync:
      return "SYNC";
    case Procedure::Open:
      return "OPEN";
    case Procedure::Close:
      return "CLOSE";
  }
  return "?";
}

const char* to_string(Target t) {
  switch (t) {
    case Target::Open:
      return "Open";
    case Target::Closed:
      return "Closed";
    case Target::ClosedIfEmpty:
      return "ClosedIfEmpty";
    case Target::Unknown:
      return "Unknown";
  }
  return "?";
}

std::optional<QueueState> parse_state(std::string_view state) {
  if (state.empty() || state == "Open") return QueueState::Open;
  if (state == "Closed") return QueueState::Closed;
  if (state == "Closing") return QueueState::Closing;
  if (state == "Unknown") return QueueState::Unknown;
  return std::nullopt;
}

Transition transition(QueueState state, std::string_view action) {
  for (const Row& row : kTable) {
    if (row.state != state) continue;
    switch (classify(action)) {
      case ActionClass::Open:
        return row.on_open;
      case ActionClass::Close:
        return row.on_close;
      case ActionClass::Other:
        return row.on_other;
    }
  }
  throw std::logic_error("queue state table has no row for state " + std::string(to_string(state)));
}

QueueState resolve(Target target, bool has_podgroups) {
  switch (target) {
    case Target::Open:
      return QueueState::Open;
    case Target::Closed:
      return QueueState::Closed;
    case Target::ClosedIfEmpty:
      return has_podgroups ? QueueState::Closing : QueueState::Closed;
    case Target::Unknown:
      return QueueState::Unknown;
  }
  return QueueState::Unknown;
}

bool is_closed_or_closing(std::string_view state) {
  return state == "Closed" || state == "Closing";
}

}  // namespace vc::controllers::queue
