#pragma once
// /jobs/mutate (spec webhook.md §2.1): defaults a Job on CREATE with a JSON patch.
//
// Threads: pure functions.

#include <nlohmann/json.hpp>

#include "webhook/admission/endpoint.h"
#include "webhook/admission/jobs/job_view.h"

namespace vc::webhook::jobs {

inline const GroupVersionResource kJobsResource{"batch.volcano.sh", "v1alpha1", "jobs"};

// The patch operations for an already checked job object (decode_job succeeded on it, giving
// `job`), in Volcano's order: queue, schedulerName, maxRetry, tasks, minAvailable, plugins.
// Empty when nothing applies. `tasks` is the object's spec.tasks, copied or moved out of it: the
// tasks operation carries it, defaulted, and job's task views may point into it.
json job_default_patch(const json& job_object, json tasks, const Job& job,
                       const AdmissionOptions& options);

AdmissionResponse admit_jobs_mutate(const AdmissionRequest& request, const ClusterView& cluster,
                                    const AdmissionOptions& options);
// The same response, moving spec.tasks out of request.object into the patch instead of copying
// it: the copy and its release were an eighth of a job mutation's instructions.
AdmissionResponse admit_jobs_mutate_consuming(AdmissionRequest& request, const ClusterView& cluster,
                                              const AdmissionOptions& options);

}  // namespace vc::webhook::jobs
