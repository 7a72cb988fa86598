#pragma once
// The checks every admit function starts with, as Volcano's schema.Decode* helpers make them: the
// request is for the endpoint's resource, and request.object decodes into the endpoint's Go type
// (common/go/json_types).
//
// Threads: pure functions.

#include <optional>
#include <string>

#include "common/go/json_types/json_types.h"
#include "webhook/admission/review.h"

namespace vc::webhook {

// How the queue, podgroup, hypernode and pod endpoints check objects: a quantity that does not
// parse is named by its field (docs/compat.md). The jobs endpoints follow Go: default options.
inline constexpr go::CheckOptions kNameQuantityField{.name_quantity_field = true};

// "expect resource to be {<group> <version> <resource>}" when the request is for another
// resource, else nullopt.
std::optional<std::string> expect_resource(const AdmissionRequest& request,
                                           const GroupVersionResource& want);

// expect_resource, then the Go type check of request.object with kNameQuantityField: nullopt
// when both pass, else the message. A null object (DELETE requests carry none) is the zero value.
std::optional<std::string> check_and_decode(const AdmissionRequest& request,
                                            const GroupVersionResource& want,
                                            const go::GoType& type);

}  // namespace vc::webhook
