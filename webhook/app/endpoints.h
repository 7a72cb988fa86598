#pragma once
// Which admission endpoints the process serves: every endpoint the admit modules provide,
// filtered by --enabled-admission, with each admit function reading the live AdmissionOptions
// (so that a re-loaded --admission-conf takes effect without rebuilding the server).
//
// Thread-safety: pure functions; the admit functions returned may be called from any thread.

#include <memory>
#include <string>
#include <vector>

#include "common/api/expected.h"
#include "webhook/admission/endpoint.h"
#include "webhook/app/live_options.h"

namespace vc::webhook::app {

// jobs, scheduling and pods endpoints, in that order.
std::vector<Endpoint> all_endpoints();

// The endpoints for paths, in the order given; a path listed twice is served once. The error
// names the first path no endpoint serves, in Volcano's words: "enabled admission /x not found
// on the admission registered map".
api::Expected<std::vector<Endpoint>> select_endpoints(const std::vector<std::string>& paths);

// Wraps each endpoint's admit function so that it ignores the options the server hands it and
// reads live->current() instead.
std::vector<Endpoint> with_live_options(std::vector<Endpoint> endpoints,
                                        std::shared_ptr<const LiveOptions> live);

// "volcano-admission-service" + path with every "/" replaced by "-" (spec webhook.md §1.2).
std::string webhook_configuration_name(const std::string& path);

}  // namespace vc::webhook::app
