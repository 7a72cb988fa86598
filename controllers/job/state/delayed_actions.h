#pragma once
// The registry of delayed (timeout) actions (spec job-controller.md §3.3, §3.4): a policy with a
// timeout arms an action that runs later unless a pod event or a same-type action cancels it
// first. Pure bookkeeping: the caller owns the clock and the timer, asks next_due() when to wake
// up and pop_due() what to run; nothing here sleeps or spawns threads.
//
// One slot per (job, pod name); job-level requests use pod name "". Adding the action a slot
// already holds is ignored (the armed one keeps its due time, as in Volcano). Adding a different
// action replaces the slot and the old action is gone for good: a deliberate fix, Volcano keeps the
// old timer running (spec job-controller.md §8.6).
//
// Threads: every method may be called from any thread; one mutex guards the registry.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "controllers/job/model/request.h"

namespace vc::controllers::job {

struct DelayedAction {
  std::uint64_t id = 0;  // unique per add, increasing
  Request request;       // the request that armed it (event, task, pod, pod UID, partition)
  std::string action;
  std::chrono::steady_clock::time_point due;
};

class DelayedActions {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  // Arms `action` for the request's job and pod. False (and nothing changes) when that slot
  // already holds the same action.
  bool add(const Request& req, std::string action, TimePoint due);

  // spec job-controller.md §3.4 first bullet, to call before handling any request: for a pod event
  // other than PodPending, removes the pod's entry if it was armed by PodPending for the same pod
  // UID, or by PodFailed/PodEvicted and the request is PodRunning. Returns what was removed.
  std::vector<DelayedAction> cancel_for_pod_event(const Request& req);

  // spec job-controller.md §3.4 second bullet, after `action` ran successfully for `req`: removes
  // the job's entries of the same action_type(); for RestartTask/RestartPod/RestartPartition only
  // those of the same task/pod/partition. Returns what was removed.
  std::vector<DelayedAction> cancel_same_type(const Request& req, std::string_view action);

  // Removes and returns the entries due at or before now, earliest first (ties: oldest add first).
  std::vector<DelayedAction> pop_due(TimePoint now);
  // The earliest due time, or nullopt when empty.
  std::optional<TimePoint> next_due() const;
  // Drops every entry of a deleted job ("<namespace>/<name>").
  void forget_job(std::string_view job_key);
  std::size_t size() const;

 private:
  using Slot = std::pair<std::string, std::string>;  // (job key, pod name)
  using DueKey = std::pair<TimePoint, std::uint64_t>;

  void erase_locked(std::map<Slot, DelayedAction>::iterator it);

  mutable std::mutex mu_;
  std::uint64_t next_id_ = 1;
  // Invariant: each entry of slots_ has exactly one entry in by_due_ keyed by its (due, id) and
  // pointing back to its slot, and by_due_ holds nothing else.
  std::map<Slot, DelayedAction> slots_;
  std::map<DueKey, Slot> by_due_;
};

}  // namespace vc::controllers::job
