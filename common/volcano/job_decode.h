#pragma once
// batch.volcano.sh/v1alpha1 Job <-> JSON.
//
// Decoding follows Go's typed client (json_read.h): a missing field or JSON null is the default;
// a field of the wrong JSON type, an integer outside its Go type, a bad timestamp or a bad
// duration throws DecodeError naming the field path
// ("spec.tasks[1].policies[0].timeout: time: invalid duration \"5x\""). Unknown fields are
// ignored. The webhook checks a request against Go's types first (for Go's own messages) and
// decodes after; the controllers decode what the API server returns.
//
// Encoding writes JobStatus as Go's encoding/json writes it (spec job-controller.md §4.7), so a
// status PUT from us carries what Volcano's would:
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

#include <nlohmann/json.hpp>

#include "common/volcano/job.h"
#include "common/volcano/json_read.h"

namespace vc::volcano {

// How task templates are held (pod_template.h).
enum class TemplateMode {
  kIntern,  // shared by content: for Jobs that are cached
  kBorrow,  // pointing into the decoded document, which must outlive the Job
};

// Decodes a whole Job (metadata, spec, status) into out. Throws DecodeError.
void decode_job(const nlohmann::json& job, Job& out, TemplateMode templates,
                const FieldPath& root = FieldPath());

// The `networkTopology` member of object (a JobSpec, a PartitionPolicy, a PodGroupSpec or a
// SubGroupPolicySpec: all embed the same NetworkTopologySpec); nullopt when absent.
std::optional<NetworkTopology> network_topology_at(const nlohmann::json& object,
                                                   const FieldPath& at);

JobSpec decode_job_spec(const nlohmann::json& spec, const FieldPath& at, TemplateMode templates);
JobStatus decode_job_status(const nlohmann::json& status, const FieldPath& at);

nlohmann::json encode_job_status(const JobStatus& status);

// Body for PUT .../jobs/<name>/status: apiVersion, kind, metadata{name, namespace, uid,
// resourceVersion} (uid and resourceVersion omitted when empty; resourceVersion is the
// optimistic-concurrency guard) and `status`.
nlohmann::json job_status_update_body(const Job& job, const JobStatus& status);

}  // namespace vc::volcano
