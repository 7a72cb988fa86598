#pragma once
// An admission endpoint: a URL path served by vc-webhook-manager and its admit function, a pure
// function of (request, cluster view, options) -> response.

#include <functional>
#include <string>
#include <vector>

#include "webhook/admission/cluster_view.h"
#include "webhook/admission/options.h"
#include "webhook/admission/review.h"

namespace vc::webhook {

using AdmitFn = std::function<AdmissionResponse(const AdmissionRequest&, const ClusterView&,
                                                const AdmissionOptions&)>;

struct Endpoint {
  std::string path;  // "/jobs/validate"
  bool mutating = false;
  AdmitFn admit;
};

}  // namespace vc::webhook
