#pragma once
// The PodGroup of a request that passed check_and_decode, as the shared typed model
// (common/volcano/podgroup.h). A null object is the zero PodGroup, as Go decodes it. An error
// names the field; after the Go type check only a value the model refuses and Go accepts could
// cause one (none is known).
//
// Threads: a pure function.

#include "common/api/expected.h"
#include "common/volcano/podgroup.h"
#include "webhook/admission/review.h"

namespace vc::webhook::scheduling {

inline api::Expected<volcano::PodGroup> decode_podgroup_request(const AdmissionRequest& request) {
  return volcano::decode_or_error<volcano::PodGroup>([&] {
    volcano::PodGroup out;
    if (!request.object.is_null()) volcano::decode_podgroup(request.object, out);
    return out;
  });
}

}  // namespace vc::webhook::scheduling
