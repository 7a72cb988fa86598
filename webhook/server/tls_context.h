#pragma once
// The serving TLS context (spec webhook.md §4.4, with the differences in docs/compat.md):
// TLS 1.2 restricted to forward-secret AEAD suites (Volcano's ECDHE AES-GCM list plus
// ChaCha20-Poly1305) and TLS 1.3 with the suites in the order a Go server on AES hardware picks
// them (kTls13Suites); no renegotiation; ALPN answers
// "http/1.1" when offered (HTTP/2 is not served). Client certificates are not requested: Volcano
// asks for one and verifies it against the system roots, which rejects the API server's usual
// private-CA client certificate instead of ignoring it.
//
// Thread-safety: make_server_context is a pure function; a built context is immutable and may be
// shared by connections on any thread.

#include <memory>
#include <string>
#include <string_view>

#include <openssl/types.h>

#include "common/api/expected.h"
#include "common/server/tls_context_provider.h"

namespace vc::webhook::server {

inline constexpr const char* kTls12CipherList =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

// The server chooses (SSL_OP_CIPHER_SERVER_PREFERENCE). OpenSSL's own order puts AES-256-GCM
// first; Go's crypto/tls, Volcano's server, picks AES-128-GCM first when the CPU has AES
// instructions, as x86-64 and arm64 servers do. AES-128 runs 10 rounds per block where AES-256
// runs 14, so a review's bytes cost less to seal and open, and the API server (a Go client) gets
// the suite it would get from Volcano. Clients that offer only another suite still get it.
inline constexpr const char* kTls13Suites =
    "TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_256_GCM_SHA384";

using vc::server::SslContextPtr;

struct ServingCertificate {
  SslContextPtr context;
  std::string serial;     // upper-case hex, as `openssl x509 -serial` prints it
  std::string subject;    // "/CN=…"
  std::string not_after;  // "Jan  2 03:04:05 2030 GMT"
};

// Builds a context from a PEM certificate chain (the leaf first; CA certificates may follow, as
// --tls-cert-file allows) and an unencrypted PEM private key. The error names what failed with
// OpenSSL's reason: "certificate: …", "certificate chain: …", "private key: …" or
// "private key does not match the certificate".
api::Expected<ServingCertificate> make_server_context(std::string_view cert_pem,
                                                      std::string_view key_pem);

}  // namespace vc::webhook::server
