#include "webhook/admission/jobs/endpoints.h"

#include "webhook/admission/jobs/admit.h"

namespace vc::webhook::jobs {

std::vector<Endpoint> endpoints() {
  return {
      {"/jobs/mutate", true, admit_jobs_mutate, admit_jobs_mutate_consuming},
      {"/jobs/validate", false, admit_jobs_validate},
      {"/cronjobs/validate", false, admit_cronjobs_validate},
      {"/jobflows/validate", false, admit_jobflows_validate},
  };
}

}  // namespace vc::webhook::jobs
