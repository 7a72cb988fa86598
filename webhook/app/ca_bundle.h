#pragma once
// The caBundle plan (spec webhook.md §4.3): given a Mutating- or ValidatingWebhookConfiguration
// as the API server returned it and the CA certificate bytes (--ca-cert-file), the object to
// write back, or nothing when every webhook already carries that CA. The executor
// (ca_bundle_sync.h) does the reading and writing.
//
// CA rotation (ours; docs/compat.md): Volcano writes exactly the CA file. We write the CA file
// followed by up to keep_previous certificates the bundle held before and the file no longer
// names, so that while the replicas still serve a pair signed by the previous CA, the API server
// trusts both. With keep_previous = 0 the bundle is the file's bytes, as Volcano's.
//
// Thread-safety: pure functions.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace vc::webhook::app {

// The CERTIFICATE blocks of a PEM text in order, each as its base64 body without whitespace
// (the identity used to tell certificates apart). Other blocks and text between them are
// skipped; an unterminated block is ignored.
std::vector<std::string> pem_certificate_bodies(std::string_view pem);

// The bundle to register for the CA file ca when the configuration currently holds registered:
// ca's bytes, then (as PEM blocks) the first keep_previous certificates of registered that ca does
// not hold, without duplicates.
std::string merge_ca_bundle(std::string_view registered, std::string_view ca, int keep_previous);

// Sets webhooks[i].clientConfig.caBundle to base64(merge_ca_bundle(current, ca, keep_previous))
// for every entry where it is missing or different (the API server stores []byte as standard
// base64, so comparing the text compares the bytes; a current bundle that is not base64 counts
// as empty). Returns the updated object, keeping metadata.resourceVersion for an optimistic
// update, or nullopt when nothing would change (also for an object without webhooks).
std::optional<nlohmann::json> plan_ca_bundle(const nlohmann::json& configuration,
                                             std::string_view ca, int keep_previous = 0);

}  // namespace vc::webhook::app
