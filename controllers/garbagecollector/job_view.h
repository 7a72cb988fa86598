#pragma once
// GcJob: the few fields of a Volcano batch Job (batch.volcano.sh/v1alpha1) that the garbage
// collector reads (spec controller-manager.md §4), as a compact cached object. The same parser
// reads the cached form (through the informer transform) and the fresh copy fetched from the
// API before a delete, so both decisions see identical data.
//
// Threads: pure functions and immutable values, callable from any thread.

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "common/api/time.h"
#include "common/kube/cache/object.h"
#include "controllers/job/model/job.h"

namespace vc::controllers::gc {

struct GcJob : kube::cache::Object {
  bool being_deleted = false;                  // metadata.deletionTimestamp is set
  std::optional<int64_t> ttl_seconds;          // spec.ttlSecondsAfterFinished
  std::string phase;                           // status.state.phase
  std::optional<api::TimePoint> transitioned;  // status.state.lastTransitionTime, if it parses
};

// Reads a Job as the API server sends it. Fields of the wrong type are treated as absent
// (untrusted input never throws out of here); a malformed lastTransitionTime counts as missing.
GcJob gc_job_from_json(const nlohmann::json& job);

// The same fields from the job controller's cached Job: the collector shares the "job-view"
// informer with it (one watch and one cache of Jobs per process, DESIGN principle 3).
GcJob gc_job_of(const job::Job& job);

}  // namespace vc::controllers::gc
