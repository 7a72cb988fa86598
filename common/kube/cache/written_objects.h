#pragma once
// WrittenObjects: the objects this process wrote, in their cached form, as the API server's
// reply to the write described them. The watch then delivers the same version again; the
// reflector takes the object from here instead of decoding the event a second time. For the job
// controller's status writes that is most of the Job events it receives, and a Job (with its pod
// templates) is the costliest object it decodes.
//
// What is offered must be exactly what the informer's transform would build from the server's
// object at that resourceVersion; a resourceVersion names one version of one object, so a match
// on key and version is a match on content.
//
// Each key keeps its latest offer. An offer leaves when its version arrives (taken), when the
// object is deleted, or when the reflector lists again (whatever was missed is in the list); the
// count is bounded all the same, in case a watch never delivers a version.
//
// Threads: all methods may be called from any thread.

#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/kube/cache/object.h"

namespace vc::kube::cache {

class WrittenObjects {
 public:
  static constexpr std::size_t kDefaultCapacity = 100000;
  explicit WrittenObjects(std::size_t capacity = kDefaultCapacity) : capacity_(capacity) {}

  // Offers obj (cached form, with its key and resourceVersion set). Ignores objects without a
  // resourceVersion, which could never be matched.
  void offer(ObjectPtr obj);
  // The offered object for key at exactly resource_version, removed from here; null if none.
  ObjectPtr take(const std::string& key, std::string_view resource_version);
  void forget(const std::string& key);
  void clear();
  std::size_t size() const;
  // Whether nothing is offered, without taking the lock: a watch asks before each event, and
  // the informers nobody writes through (pods, PodGroups) then skip reading the event's head.
  // A racing offer may be missed; its event is then decoded whole, as without an offer.
  bool empty() const { return count_.load(std::memory_order_relaxed) == 0; }

 private:
  void count() { count_.store(by_key_.size(), std::memory_order_relaxed); }  // under mu_

  const std::size_t capacity_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, ObjectPtr> by_key_;
  std::atomic<std::size_t> count_{0};  // by_key_.size(), readable without mu_
};

}  // namespace vc::kube::cache
