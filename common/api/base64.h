#pragma once
// Standard base64 with padding (RFC 4648 §4), as Go encodes []byte fields: admission patches,
// caBundle, Secret data, the authorized-keys blob.
//
// Thread-safety: pure function.

#include <string>
#include <string_view>

namespace vc::api {

std::string base64_encode(std::string_view bytes);

}  // namespace vc::api
