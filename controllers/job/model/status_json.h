#pragma once
// JobStatus <-> JSON as Go's encoding/json writes batch.volcano.sh/v1alpha1 JobStatus
// (spec job-controller.md §4.7), so a status PUT from us carries what Volcano's would:
//   - `state` is always present (a struct is never omitted) and its `lastTransitionTime` is
//     JSON null when unset (metav1.Time marshals its zero value as null); phase, reason and
//     message are omitted when empty;
//   - minAvailable, pending, running, succeeded, failed, terminating, unknown, version and
//     retryCount are omitted when 0; runningDuration when unset; taskStatusCount,
//     controlledResources and conditions when empty;
//   - taskStatusCount is {task: {"phase": {podPhase: n}}}, with "phase" omitted when empty;
//   - conditions are [{status, lastTransitionTime}], status always written, the time omitted
//     when unset. Timestamps are RFC 3339 with whole seconds.
// Key order differs from Go's (nlohmann::json sorts keys); JSON consumers do not care.
//
// Threads: pure functions, callable from any thread.

#include <string>

#include <nlohmann/json.hpp>

#include "controllers/job/model/job.h"

namespace vc::controllers::job {

nlohmann::json status_to_json(const JobStatus& status);

// Throws std::invalid_argument naming the field ("status.state.lastTransitionTime: ...") on a
// wrong JSON type, a bad timestamp or a malformed runningDuration. Missing fields = defaults.
JobStatus status_from_json(const nlohmann::json& status);

// Body for PUT .../jobs/<name>/status: apiVersion, kind, metadata{name, namespace, uid,
// resourceVersion} (uid and resourceVersion omitted when empty; resourceVersion is the
// optimistic-concurrency guard) and `status`.
nlohmann::json status_update_body(const Job& job, const JobStatus& status);

// status_from_json reading `status` at the given field path; the Job decoder passes "status".
JobStatus status_from_json_at(const nlohmann::json& status, const std::string& path);

}  // namespace vc::controllers::job
