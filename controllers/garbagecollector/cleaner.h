#pragma once
// The garbage collector's executor: given a job the cache says has expired, re-read it from the
// API server (the cache may lag behind a restart or an edit of the TTL), decide again on the
// fresh copy, and delete it with propagationPolicy Foreground (its pods and PodGroup go first)
// and a UID precondition (never delete a newer job that reused the name).
//
// Threads: clean_up may be called from any thread; it blocks on the API calls.

#include <chrono>
#include <string>
#include <string_view>

#include "common/api/time.h"
#include "common/kube/client.h"

namespace vc::controllers::gc {

struct CleanupOutcome {
  enum class Kind {
    Deleted,       // the DELETE was accepted
    Gone,          // nothing to do: the job is gone, replaced, or no longer a candidate
    RecheckAfter,  // the fresh copy has not expired yet
    Retry,         // a retryable failure; error says what
  };
  Kind kind = Kind::Gone;
  std::chrono::milliseconds after{0};  // RecheckAfter
  std::string error;                   // Retry

  static CleanupOutcome of(Kind kind) { return {kind, {}, {}}; }
};

CleanupOutcome clean_up(kube::Client& client, std::string_view ns, std::string_view name,
                        api::TimePoint now);

}  // namespace vc::controllers::gc
