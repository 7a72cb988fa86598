#pragma once
// The scheduling endpoints served by vc-webhook-manager, by URL path.

#include <vector>

#include "webhook/admission/endpoint.h"

namespace vc::webhook::scheduling {

// "/podgroups/mutate" and "/queues/mutate" (mutating), "/podgroups/validate",
// "/queues/validate" and "/hypernodes/validate".
std::vector<Endpoint> endpoints();

}  // namespace vc::webhook::scheduling
