#pragma once
// validateJobCreate (spec webhook.md §2.2): every CREATE check of /jobs/validate, in Volcano's
// order, building Volcano's concatenated message.
//
// Threads: pure function of its arguments; the ClusterView must allow concurrent reads.

#include <string>
#include <vector>

#include "webhook/admission/cluster_view.h"
#include "webhook/admission/jobs/job_view.h"
#include "webhook/admission/options.h"

namespace vc::webhook::jobs {

struct CreateResult {
  std::string message;  // untrimmed; empty when the job is valid
  std::vector<std::string> warnings;
};

// `ns` is the namespace the job's pods are validated in (the job's own, or the request's when
// the object carries none).
CreateResult validate_job_create(const Job& job, const std::string& ns, const ClusterView& cluster,
                                 const AdmissionOptions& options);

}  // namespace vc::webhook::jobs
