#pragma once
// The admit functions of this folder (signature AdmitFn, see webhook/admission/endpoint.h):
//   /jobs/mutate        admit_jobs_mutate (mutate_job.h)
//   /jobs/validate      admit_jobs_validate: CREATE and UPDATE (spec webhook.md §2.2, §3.1)
//   /cronjobs/validate  admit_cronjobs_validate (spec webhook.md §2.10)
//   /jobflows/validate  admit_jobflows_validate (spec webhook.md §2.9)
// Each checks the request's resource first, then decodes the object; nothing is thrown.
//
// Threads: pure functions; safe to call concurrently.

#include <optional>
#include <string>

#include "common/volcano/cron_job.h"
#include "common/volcano/job_flow.h"
#include "webhook/admission/endpoint.h"
#include "webhook/admission/jobs/mutate_job.h"

namespace vc::webhook::jobs {

inline const GroupVersionResource kCronJobsResource{"batch.volcano.sh", "v1alpha1", "cronjobs"};
inline const GroupVersionResource kJobFlowsResource{"flow.volcano.sh", "v1alpha1", "jobflows"};

AdmissionResponse admit_jobs_validate(const AdmissionRequest& request, const ClusterView& cluster,
                                      const AdmissionOptions& options);
AdmissionResponse admit_cronjobs_validate(const AdmissionRequest& request,
                                          const ClusterView& cluster,
                                          const AdmissionOptions& options);
AdmissionResponse admit_jobflows_validate(const AdmissionRequest& request,
                                          const ClusterView& cluster,
                                          const AdmissionOptions& options);

// The CronJob spec and name checks: Volcano's concatenated fragments, untrimmed ("" if valid).
std::string cron_job_problems(const volcano::CronJob& cron_job);

// The JobFlow DAG check: "" or the denial message.
std::string job_flow_problems(const volcano::JobFlow& job_flow);

}  // namespace vc::webhook::jobs
