#include "common/server/address.h"

#include <charconv>
#include <stdexcept>

namespace vc::server {
namespace {

[[noreturn]] void bad(std::string_view address, std::string_view why) {
  throw std::invalid_argument("invalid listen address \"" + std::string(address) +
                              "\": " + std::string(why));
}

}  // namespace

ListenAddress parse_listen_address(std::string_view address) {
  const auto colon = address.rfind(':');
  if (colon == std::string_view::npos) bad(address, "want host:port, e.g. \":8080\"");
  std::string_view host = address.substr(0, colon);
  const std::string_view port = address.substr(colon + 1);

  if (host.starts_with('[') || host.ends_with(']')) {
    if (!(host.starts_with('[') && host.ends_with(']')) || host.size() < 2) {
      bad(address, "unbalanced brackets around an IPv6 host");
    }
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    bad(address, "an IPv6 host must be in brackets, e.g. \"[::1]:8080\"");
  }

  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc() || end != port.data() + port.size() || value > 65535) {
    bad(address, "port must be a number from 0 to 65535");
  }
  return ListenAddress{std::string(host), static_cast<std::uint16_t>(value)};
}

std::string join_host_port(std::string_view host, std::uint16_t port) {
  const bool ipv6 = host.find(':') != std::string_view::npos;
  return (ipv6 ? "[" + std::string(host) + "]" : std::string(host)) + ":" + std::to_string(port);
}

}  // namespace vc::server
