#pragma once
// The plain data the queue controller reasons about (spec controller-manager.md §2): requests
// on the work queue, the fields of a Queue it reads, and PodGroup counts per phase. Everything
// here is a value type; the pure planner (plan.h) takes these and nothing else.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/kube/events/event.h"
#include "common/volcano/queue.h"

namespace vc::controllers::queue {

// Exact strings of the Volcano API (spec controller-manager.md §2.1, §6.1).
inline constexpr std::string_view kRootQueue = "root";
inline constexpr std::string_view kClosedByParentAnnotation = "volcano.sh/closed-by-parent";
inline constexpr std::string_view kFieldManager = "queue-controller";
// bus.volcano.sh actions and events.
inline constexpr std::string_view kSyncQueueAction = "SyncQueue";
inline constexpr std::string_view kOpenQueueAction = "OpenQueue";
inline constexpr std::string_view kCloseQueueAction = "CloseQueue";
inline constexpr std::string_view kOutOfSyncEvent = "OutOfSync";
inline constexpr std::string_view kCommandIssuedEvent = "CommandIssued";

// One item of the queue work queue: which queue, why, and what to do
// (spec controller-manager.md §2.2). The action is kept verbatim (a command's action is not
// validated); the event may be empty (requests made by the hierarchy rules carry none).
struct Request {
  std::string queue;
  std::string event;
  std::string action;

  bool operator==(const Request&) const = default;
};

// Requests are the work queue's keys: identical requests are de-duplicated, different actions
// on one queue are separate items.
struct RequestHash {
  std::size_t operator()(const Request& r) const;
};
// "<event>/<action>/<queue>", how a request appears in log lines.
std::string describe(const Request& r);

// The fields of a Queue the controller reads.
struct QueueInfo {
  std::string name;
  std::string uid;
  std::string resource_version;
  std::string parent;                           // spec.parent; "" = not set
  std::string state;                            // status.state verbatim; "" = never set
  std::optional<std::string> closed_by_parent;  // the volcano.sh/closed-by-parent annotation

  kube::events::ObjectReference reference() const;
};

// The fields the controller reads of a cached Queue (controllers/views/queue_view.h).
QueueInfo queue_info(const volcano::Queue& queue);

// PodGroups of one queue counted by status.phase (spec controller-manager.md §2.6 step 2). Phases
// outside the five (including none) are not counted, but the PodGroup still makes the queue
// non-empty.
struct PhaseCounts {
  std::int32_t pending = 0;
  std::int32_t running = 0;
  std::int32_t unknown = 0;
  std::int32_t inqueue = 0;
  std::int32_t completed = 0;

  bool operator==(const PhaseCounts&) const = default;
};

PhaseCounts count_phases(const std::vector<std::string>& phases);

}  // namespace vc::controllers::queue
