#pragma once
// The caBundle plan (spec webhook.md §4.3): given a Mutating- or ValidatingWebhookConfiguration
// as the API server returned it and the CA certificate bytes (--ca-cert-file), the object to
// write back, or nothing when every webhook already carries exactly that CA. The executor
// (ca_bundle_sync.h) does the reading and writing.
//
// Thread-safety: pure function.

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace vc::webhook::app {

// Sets webhooks[i].clientConfig.caBundle to base64(ca) for every entry where it is missing or
// different (the API server stores []byte as standard base64, so comparing the text compares the
// bytes). Returns the updated object, keeping metadata.resourceVersion for an optimistic update,
// or nullopt when nothing would change (also for an object without webhooks).
std::optional<nlohmann::json> plan_ca_bundle(const nlohmann::json& configuration,
                                             std::string_view ca);

}  // namespace vc::webhook::app
