#pragma once
// Listen addresses in Go's "host:port" form, as the Volcano flags take them.

#include <cstdint>
#include <string>
#include <string_view>

namespace vc::server {

struct ListenAddress {
  std::string host;    // empty = all interfaces
  std::uint16_t port;  // 0 = any free port (tests)
};

// ":8080", "0.0.0.0:8080", "127.0.0.1:0", "localhost:9090", "[::1]:8080". Throws
// std::invalid_argument naming the address when it has no port, a port outside 0-65535, or an
// unbalanced bracket: a bad flag value is a start-up configuration mistake.
ListenAddress parse_listen_address(std::string_view address);

// The other way, as Go's net.JoinHostPort: an IPv6 host in brackets, "[::1]:8443", ":8080".
std::string join_host_port(std::string_view host, std::uint16_t port);

}  // namespace vc::server
