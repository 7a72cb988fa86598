#pragma once
// JobStore: the job controller's view of Jobs, which is the informer's cache plus the Job as our
// own last write returned it. After a status write the informer needs a moment to deliver the
// new version; a request for the same job processed in that moment must start from what we
// wrote (its resourceVersion, version, retryCount, phase), as Volcano's job cache does, or it
// would recompute from stale status and lose a conflict. The newer of the two by
// resourceVersion wins; an overlay entry is dropped once the informer has caught up.
//
// Threads: all methods may be called from any thread.

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "common/kube/cache/store.h"
#include "common/kube/cache/written_objects.h"
#include "controllers/job/model/job.h"

namespace vc::controllers::job {

class JobStore {
 public:
  // written (optional, not owned): the informer's; each recorded write is offered to it, so the
  // watch event of that version is not decoded again.
  explicit JobStore(const kube::cache::Store& informer_store,
                    kube::cache::WrittenObjects* written = nullptr)
      : store_(informer_store), written_(written) {}

  // The newest known version of the job "ns/name", or null when the informer does not have it
  // (deleted, or not yet seen: a job we never saw is not ours to act on).
  JobPtr get(const std::string& key) const;
  // Records the Job as the API server returned it from our write.
  void record_write(JobPtr written);
  // The job was deleted: drop what we remember of it.
  void forget(const std::string& key);
  std::size_t overlay_size() const;

 private:
  const kube::cache::Store& store_;
  kube::cache::WrittenObjects* const written_;
  mutable std::mutex mu_;
  mutable std::unordered_map<std::string, JobPtr> overlay_;
};

// resourceVersion ordering: Kubernetes treats them as opaque, but etcd-backed servers hand out
// increasing integers; when either does not parse, a is not considered newer.
bool newer_resource_version(const std::string& a, const std::string& b);

}  // namespace vc::controllers::job
