#pragma once
// The endpoints this folder serves: /jobs/mutate (mutating), /jobs/validate,
// /cronjobs/validate and /jobflows/validate.
//
// Threads: pure function; the returned admit functions are safe to call concurrently.

#include <vector>

#include "webhook/admission/endpoint.h"

namespace vc::webhook::jobs {

std::vector<Endpoint> endpoints();

}  // namespace vc::webhook::jobs
