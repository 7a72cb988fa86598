#pragma once
// The JobTemplate controller's executor: one status write of jobDependsOnList, with the cached
// resourceVersion (a conflict is an error; the caller retries on a fresh cache).
//
// Threads: called from the controller's single worker; blocks on the API call.

#include <string>
#include <vector>

#include "common/kube/client.h"
#include "controllers/jobflow/views.h"

namespace vc::controllers::jobtemplate {

// "" on success, else what failed.
std::string write_depends_on(kube::Client& client, const jobflow::JobTemplateView& job_template,
                             const std::vector<std::string>& names);

}  // namespace vc::controllers::jobtemplate
