#pragma once
// Standard base64 with padding (RFC 4648 section 4), as Go encodes []byte fields: admission
// patches, caBundle, Secret data, the authorized-keys blob.
//
// Thread-safety: pure functions.

#include <optional>
#include <string>
#include <string_view>

namespace vc::go {

std::string base64_encode(std::string_view bytes);

// base64.StdEncoding.DecodeString: padding required, CR and LF ignored (as go-yaml decodes a
// !!binary scalar); nullopt on any other byte outside the alphabet or a bad length.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace vc::go
