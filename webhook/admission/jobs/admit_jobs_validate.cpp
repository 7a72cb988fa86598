#include "common/volcano/go_types.h"
#include "webhook/admission/jobs/admit.h"
#include "webhook/admission/jobs/semantic.h"
#include "webhook/admission/jobs/validate_job_create.h"
#include "webhook/admission/jobs/validate_job_update.h"
#include "webhook/admission/request_checks.h"

namespace vc::webhook::jobs {

AdmissionResponse admit_jobs_validate(const AdmissionRequest& request, const ClusterView& cluster,
                                      const AdmissionOptions& options) {
  if (auto err = expect_resource(request, kJobsResource)) return AdmissionResponse::deny(*err);
  auto job = decode_job(request.object, request.nesting_bounded);
  if (!job) return AdmissionResponse::deny(job.error());

  if (request.operation == "CREATE") {
    // The API server sets metadata.namespace before admission; fall back to the request's
    // namespace for objects that carry none.
    const std::string ns = job->namespace_.empty() ? request.namespace_ : job->namespace_;
    CreateResult result = validate_job_create(*job, ns, cluster, options);
    AdmissionResponse response = result.message.empty()
                                     ? AdmissionResponse::allow()
                                     : AdmissionResponse::deny(go_trim_space(result.message));
    response.warnings = std::move(result.warnings);
    return response;
  }
  if (request.operation == "UPDATE") {
    auto old_job = decode_job(request.old_object, request.nesting_bounded);
    if (!old_job) return AdmissionResponse::deny(old_job.error());
    std::string msg = validate_job_update(*job, *old_job, request.object, request.old_object);
    return msg.empty() ? AdmissionResponse::allow() : AdmissionResponse::deny(std::move(msg));
  }
  return AdmissionResponse::deny("expect operation to be 'CREATE' or 'UPDATE'");
}

}  // namespace vc::webhook::jobs
