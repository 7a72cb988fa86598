#pragma once
// The pod endpoints served by vc-webhook-manager, by URL path.

#include <vector>

#include "webhook/admission/endpoint.h"

namespace vc::webhook::pods {

// "/pods/mutate" (mutating) and "/pods/validate".
std::vector<Endpoint> endpoints();

}  // namespace vc::webhook::pods
