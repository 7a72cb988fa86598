#pragma once
// SSH key material for the ssh plugin (spec job-controller.md §5.3), made with OpenSSL 3: an RSA
// key as a PKCS#1 PEM block ("-----BEGIN RSA PRIVATE KEY-----") and its OpenSSH authorized-keys
// line ("ssh-rsa <base64 of the RFC 4253 public key blob>\n"), the formats Volcano writes.
//
// Threads: pure functions; OpenSSL 3 key generation is thread-safe.

#include <string>
#include <string_view>

#include "common/api/expected.h"
#include "common/go/base64.h"

namespace vc::controllers::job::plugins {

struct SshKeyPair {
  std::string private_pem;     // PKCS#1 PEM, with a trailing newline
  std::string authorized_key;  // "ssh-rsa AAAA...\n"
};

// A fresh RSA key of this size; the error names the OpenSSL step that failed.
api::Expected<SshKeyPair> generate_ssh_key_pair(int bits = 2048);

using go::base64_encode;  // common/go/base64.h: Secret data, the authorized-keys blob

}  // namespace vc::controllers::job::plugins
