#pragma once
// Finishing a job status before it is written
// (spec job-controller.md §4.2 steps 5 and 9, §4.3 step 6, §4.7): change detection,
// lastTransitionTime and the de-duplicated condition list, and runningDuration in Go's
// time.Duration format.
//
// Threads: pure functions; callable from any thread.

#include <chrono>
#include <string>

#include "common/api/time.h"
#include "controllers/job/model/job.h"

namespace vc::controllers::job {

// True when next differs from stored in any field, compared semantically: a nil map or list and
// an empty one are equal (the typed status cannot tell them apart, and Volcano's not-admitted
// path compares the same way). syncJob writes the status only when this is true.
bool status_changed(const JobStatus& stored, const JobStatus& next);

// lastTransitionTime = now, and the condition {status: <current phase>, lastTransitionTime: now}
// appended after removing any older entry for the same phase, so the list holds at most one entry
// per phase, most recent last (spec job-controller.md §4.7).
void touch_transition(JobStatus& status, api::TimePoint now);

// runningDuration = lastTransitionTime - creationTimestamp (spec job-controller.md §4.3 step 6),
// written by every kill. Left unchanged when either time is unknown (the API server always sets
// creationTimestamp and the controller sets lastTransitionTime before any kill can run).
void set_running_duration(JobStatus& status, const Job& job);

}  // namespace vc::controllers::job
