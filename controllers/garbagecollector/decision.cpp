#include "controllers/garbagecollector/decision.h"

#include <chrono>

namespace vc::controllers::gc {

bool is_finished_phase(std::string_view phase) {
  return phase == "Completed" || phase == "Failed" || phase == "Terminated";
}

bool is_cleanup_candidate(const GcJob& job) {
  return !job.being_deleted && job.ttl_seconds.has_value() && is_finished_phase(job.phase);
}

Decision decide(const GcJob& job, api::TimePoint now) {
  if (!is_cleanup_candidate(job)) return Decision::keep();
  if (!job.transitioned) {
    return Decision::failed("unable to find the time when the Job " + job.namespace_ + "/" +
                            job.name + " finished");
  }
  const api::TimePoint finished = *job.transitioned;
  const api::TimePoint expires = finished + std::chrono::seconds(*job.ttl_seconds);
  if (now >= expires) return Decision::delete_now();
  // Round up so that the recheck never lands a hair before the expiry and loops once more.
  const auto remaining = std::chrono::ceil<std::chrono::milliseconds>(expires - now);
  return Decision::recheck_after(remaining, finished > now);
}

const char* to_string(Decision::Kind kind) {
  switch (kind) {
    case Decision::Kind::Keep:
      return "Keep";
    case Decision::Kind::DeleteNow:
      return "DeleteNow";
    case Decision::Kind::RecheckAfter:
      return "RecheckAfter";
    case Decision::Kind::Error:
      return "Error";
  }
  return "?";
}

}  // namespace vc::controllers::gc
