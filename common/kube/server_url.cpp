#include "common/kube/server_url.h"

#include <arpa/inet.h>

#include <string_view>

#include "common/kube/config.h"

namespace vc::kube {

ServerUrl parse_server_url(const std::string& server) {
  auto fail = [&](const std::string& problem) -> ServerUrl {
    throw ConfigError("server \"" + server + "\": " + problem);
  };
  ServerUrl u;
  std::string_view rest = server;
  if (rest.starts_with("https://")) {
    rest.remove_prefix(8);
  } else if (rest.starts_with("http://")) {
    u.tls = false;
    rest.remove_prefix(7);
  } else if (rest.find("://") != std::string_view::npos) {
    return fail("only https:// and http:// are supported");
  }
  const auto slash = rest.find('/');
  const std::string_view authority = rest.substr(0, slash);
  if (slash != std::string_view::npos) {
    u.base_path = std::string(rest.substr(slash));
    while (!u.base_path.empty() && u.base_path.back() == '/') u.base_path.pop_back();
  }
  if (authority.empty()) return fail("no host");
  std::string_view port;
  if (authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return fail("unterminated IPv6 address");
    u.host = std::string(authority.substr(1, close - 1));
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return fail("unexpected text after the IPv6 address");
      port = authority.substr(close + 2);
    }
  } else {
    const auto colon = authority.rfind(':');
    u.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port = authority.substr(colon + 1);
  }
  if (u.host.empty()) return fail("no host");
  u.port = port.empty() ? (u.tls ? "443" : "80") : std::string(port);
  for (char c : u.port) {
    if (c < '0' || c > '9') return fail("bad port \"" + u.port + "\"");
  }
  const bool v6 = u.host.find(':') != std::string::npos;
  u.host_header = (v6 ? "[" + u.host + "]" : u.host) + ":" + u.port;
  return u;
}

bool is_ip_literal(const std::string& host) {
  unsigned char buf[16];
  return inet_pton(AF_INET, host.c_str(), buf) == 1 || inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

}  // namespace vc::kube
