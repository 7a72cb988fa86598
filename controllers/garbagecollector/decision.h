#pragma once
// The garbage collector's decision for one Volcano Job (spec controller-manager.md §4), as a pure
// function of the job and the current wall-clock time:
//
//   not a candidate (being deleted, no TTL, not finished)  -> Keep
//   finished, lastTransitionTime missing                    -> Error (retried with backoff)
//   finished at F, TTL t, now >= F + t                      -> DeleteNow
//   otherwise                                               -> RecheckAfter(F + t - now)
//
// "Finished" is exactly Completed, Failed or Terminated. Aborted is not finished (Volcano's rule,
// kept: an aborted job can be resumed), and neither are the transient phases.
//
// Threads: pure functions, callable from any thread.

#include <chrono>
#include <string>
#include <string_view>
#include <utility>

#include "common/api/time.h"
#include "controllers/garbagecollector/job_view.h"

namespace vc::controllers::gc {

bool is_finished_phase(std::string_view phase);

// Whether the job should be queued at all: no deletionTimestamp, a TTL, and finished.
bool is_cleanup_candidate(const GcJob& job);

struct Decision {
  enum class Kind { Keep, DeleteNow, RecheckAfter, Error };
  Kind kind = Kind::Keep;
  std::chrono::milliseconds after{0};  // RecheckAfter: how long until the job expires (> 0)
  std::string error;                   // Error: why no decision could be made
  bool clock_skew = false;             // the finish time lies in the future (worth a warning)

  static Decision keep() { return {}; }
  static Decision delete_now() { return {Kind::DeleteNow, {}, {}, false}; }
  static Decision recheck_after(std::chrono::milliseconds d, bool skew) {
    return {Kind::RecheckAfter, d, {}, skew};
  }
  static Decision failed(std::string why) { return {Kind::Error, {}, std::move(why), false}; }
};

Decision decide(const GcJob& job, api::TimePoint now);

const char* to_string(Decision::Kind kind);

}  // namespace vc::controllers::gc
