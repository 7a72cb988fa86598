#pragma once
// PendingCreates: the objects this controller created whose creation its informer has not shown
// yet, per job. A create call returns before the watch delivers the new object, and the batched
// sync that the job's other pod events cause runs at once, so it can plan on a cache that lacks
// the last pods (or the PodGroup) just created. Planning on that cache would create them again
// (AlreadyExists, and a status counting them out), leave them alive through a kill, or keep a
// PodGroup through Abort. The syncer therefore adds what it recorded here to the cache's view
// (job_pods.h) until the informer shows it. The mirror of PendingDeletes (pending_deletes.h).
//
// Each entry is the object as the controller knows it from its create (the UID from the reply):
// a stand-in for the cached object. Entries are keyed by UID, so an object of the same name
// created by someone else is never mistaken for ours. An entry goes when the informer shows the
// object (forget), or, should that never happen (it was created and deleted between two lists),
// after ttl.
//
// Threads: all methods may be called from any thread.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/kube/cache/object.h"

namespace vc::controllers::job {

class PendingCreates {
 public:
  using Clock = std::chrono::steady_clock;

  explicit PendingCreates(Clock::duration ttl = std::chrono::minutes(2)) : ttl_(ttl) {}

  // We created object for the job job_key (the API accepted the create). An object without a UID
  // is not recorded: the informer's copy could never be matched to it.
  void record(const std::string& job_key, kube::cache::ObjectPtr object,
              Clock::time_point now = Clock::now());
  // The objects recorded for job_key within ttl of now and not forgotten since, in no order.
  std::vector<kube::cache::ObjectPtr> of(const std::string& job_key,
                                         Clock::time_point now = Clock::now()) const;
  // The informer shows the object (or we deleted the object ourselves and know it is gone).
  void forget(const std::string& job_key, const std::string& uid);
  // Lock-free: lets the common case (every create already shown) skip the lock.
  bool empty() const { return count_.load(std::memory_order_acquire) == 0; }
  std::size_t size() const;

 private:
  struct Entry {
    kube::cache::ObjectPtr object;
    Clock::time_point at;
  };
  using ByUid = std::unordered_map<std::string, Entry>;

  void prune_locked(Clock::time_point now);

  const Clock::duration ttl_;
  mutable std::mutex mu_;
  // Invariants: no job maps to an empty ByUid; count_ is the number of entries in all of them
  // (changed under mu_ only).
  std::unordered_map<std::string, ByUid> by_job_;
  Clock::time_point next_prune_{};
  std::atomic<std::size_t> count_{0};
};

}  // namespace vc::controllers::job
