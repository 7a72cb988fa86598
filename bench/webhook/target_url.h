#pragma once
// --url parsing: only what a webhook load needs, https://HOST:PORT with an optional trailing '/'.
//
// Thread-safety: pure.

#include <cstdint>
#include <string>
#include <string_view>

namespace vc::bench {

struct TargetUrl {
  std::string host;  // a name, an IPv4 address, or an IPv6 address without brackets
  std::uint16_t port = 443;
};

// "https://127.0.0.1:28643" -> {127.0.0.1, 28643}; "https://[::1]:8443"; no port means 443.
// Throws std::invalid_argument for another scheme, a path, or a bad port.
TargetUrl parse_target_url(std::string_view url);

}  // namespace vc::bench
