#pragma once
// TrustedCas: the CA certificates the API server is known to trust for this webhook, i.e. the
// CA file as last confirmed written into every caBundle (webhook/app/ca_rotation.h). The
// certificate reloader asks it before it swaps in a new serving pair: a pair whose chain does not
// lead to one of these CAs is held back, and the current pair kept, until the caBundle update
// that names the new CA has been confirmed. Without that, a CA rotation would serve a certificate
// the API server cannot verify yet, and every admission would fail until the bundle caught up.
//
// Before the first set() there is no gate: every pair is accepted (tests, and a server whose
// caBundle is managed elsewhere).
//
// Thread-safety: every method may be called from any thread; set() replaces the store in one step.

#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include <openssl/types.h>

#include "common/api/expected.h"

namespace vc::webhook::server {

class TrustedCas {
 public:
  // Replaces the trusted CAs with the certificates of a PEM text. Returns an error (and keeps the
  // previous set) when the text holds no readable certificate.
  api::Status set(std::string_view ca_pem);

  // Whether the chain (PEM: the leaf first, intermediates after it, as --tls-cert-file holds it)
  // verifies up to one of the trusted CAs (validity dates are not checked: an expired pair is the
  // reloader's business, not a reason to hold it back). Ok when set() was never called; else the
  // error says why not.
  api::Status check(std::string_view chain_pem) const;

  bool active() const;

 private:
  mutable std::mutex mu_;
  std::shared_ptr<X509_STORE> store_;  // null until set()
};

}  // namespace vc::webhook::server
