#pragma once
// ServerUrl: the parts of Config::server the transport needs ("https://host:port/prefix").
//
// Thread-safety: pure functions.

#include <string>

namespace vc::kube {

struct ServerUrl {
  bool tls = true;
  std::string host;         // without IPv6 brackets
  std::string port;         // "443" when absent for https, "80" for http
  std::string host_header;  // "host:port", IPv6 in brackets
  std::string base_path;    // a path prefix (API proxies put one there); no trailing '/'
};

// Throws ConfigError naming the server URL when it is not a usable http(s) URL.
ServerUrl parse_server_url(const std::string& server);

// True for an IPv4 or IPv6 literal (no brackets).
bool is_ip_literal(const std::string& host);

}  // namespace vc::kube
