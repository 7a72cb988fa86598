#pragma once
// PendingDeletes: the pods and PodGroups this controller deleted whose deletion its informers
// have not shown yet. A delete call returns before the watch delivers the deletionTimestamp or
// the removal, and the job update that our own status write causes travels on another watch,
// so the next sync of the job can run on a cache that still holds the killed pod as Failed or
// Running and the old PodGroup as admitted. Counting that pod would undo the kill: a job
// restarted on a pod failure would count the old failed pod, go Pending -> Running -> Failed
// at once, and never use its remaining retries. The syncer therefore treats a recorded object
// as deleted (a pod as terminating, a PodGroup as absent) until the informer catches up.
//
// Entries are keyed by UID, so a re-created object of the same name is never mistaken for the
// deleted one. An entry goes when the syncer sees the informer show the deletion (forget) or,
// should that never happen (the object vanished between two lists), after ttl.
//
// Threads: all methods may be called from any thread.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace vc::controllers::job {

class PendingDeletes {
 public:
  using Clock = std::chrono::steady_clock;

  explicit PendingDeletes(Clock::duration ttl = std::chrono::minutes(2)) : ttl_(ttl) {}

  // The object with this UID was deleted by us (the API accepted the delete or said NotFound).
  void record(const std::string& uid, Clock::time_point now = Clock::now());
  // Whether uid was recorded within ttl of now and not forgotten since.
  bool contains(const std::string& uid, Clock::time_point now = Clock::now()) const;
  // The informer shows the deletion: the cache alone tells the truth again.
  void forget(const std::string& uid);
  // Lock-free: lets the common case (nothing deleted lately) skip the lock.
  bool empty() const { return count_.load(std::memory_order_acquire) == 0; }
  std::size_t size() const;

 private:
  void prune_locked(Clock::time_point now);

  const Clock::duration ttl_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Clock::time_point> recorded_;
  Clock::time_point next_prune_{};
  std::atomic<std::size_t> count_{0};
};

}  // namespace vc::controllers::job
