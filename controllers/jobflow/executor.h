#pragma once
// The JobFlow controller's executor: deletes a finished flow's Jobs (retain policy delete),
// creates the Jobs the plan made ready (event Created), then writes status once, with the cached
// resourceVersion, when it changed, and counts the flow's move to Succeed or Failed
// (volcano_jobflow_{succeed,failed}_phase_count). A failed call stops the sync before the
// status write; the caller retries.
//
// Threads: called from the controller's single worker; blocks on the API calls.

#include <string>

#include "common/kube/client.h"
#include "common/kube/events/recorder.h"
#include "controllers/jobflow/plan.h"

namespace vc::controllers::jobflow {

// "" on success, else what failed.
std::string execute(const Plan& plan, const volcano::JobFlow& job_flow, kube::Client& client,
                    kube::events::EventRecorder& recorder);

// The object reference events about a JobFlow carry.
kube::events::ObjectReference reference_to(const volcano::JobFlow& job_flow);

}  // namespace vc::controllers::jobflow
