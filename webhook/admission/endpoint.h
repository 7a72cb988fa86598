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
// The same function for a caller that is done with the request: it may move members out of it
// instead of copying them (the caller still frees what is left).
using ConsumingAdmitFn = std::function<AdmissionResponse(AdmissionRequest&, const ClusterView&,
                                                         const AdmissionOptions&)>;

struct Endpoint {
  std::string path;  // "/jobs/validate"
  bool mutating = false;
  AdmitFn admit;
  // Optional; when set, gives the same responses as admit. The server calls it, since it decodes
  // each request for one call; check and the tests call admit.
  ConsumingAdmitFn admit_consuming = nullptr;
};

}  // namespace vc::webhook
