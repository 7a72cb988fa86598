#pragma once
// Throw-away certificates for TLS tests, generated in memory with OpenSSL at test time.
//
// Thread-safe: make_pki may be called from any thread.

#include <string>

namespace vc::testing {

struct CertKey {
  std::string cert_pem;
  std::string key_pem;
};

struct Pki {
  CertKey ca;      // self-signed CA
  CertKey server;  // signed by ca; SAN IP:127.0.0.1 and DNS:localhost; serverAuth
  CertKey client;  // signed by ca; CN = client_cn; clientAuth
};

// A fresh CA with a server and a client certificate (EC P-256 keys, valid for one day).
// Throws std::runtime_error if OpenSSL fails.
Pki make_pki(const std::string& client_cn = "test-client");

}  // namespace vc::testing
