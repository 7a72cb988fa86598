#pragma once
// CertificateReloader: the serving certificate and key (--tls-cert-file, --tls-private-key-file),
// re-read while the server runs so that a rotated pair is served without a restart (Volcano reads
// them once; docs/compat.md).
//
// poll() reads both files and, when their content differs from the pair it last tried, builds a
// new TLS context from them. A valid pair replaces the current context in one step: connections
// accepted afterwards use it, established connections keep the context they started with. An
// invalid pair (half-written, unparsable, or a key that does not match the certificate) is logged
// and counted once, and ignored: the current context stays, and the pair is tried again as soon as
// either file changes, e.g. when the writer has finished the second file.
//
// Content is compared rather than modification times: timestamps move in kernel ticks, so a
// rewrite within one tick would go unnoticed, and reading two small files a second is cheap. Only
// SHA-256 digests of the contents are kept, not a second copy of the key.
//
// CA rotation: with a TrustedCas (trusted_cas.h), poll() holds back a new pair whose chain does
// not lead to a CA the caBundle is confirmed to hold, keeps serving the current pair, and tries
// the held pair again at every poll, so that it is swapped in at the first poll after the caBundle
// update is confirmed (the rotation calls poll() at once then). load(), the first, is never held:
// there is no other pair to serve.
//
// It is the admission server's TLS context provider (common/server/tls_context_provider.h): the
// server calls load() at start, poll() every cert_poll_interval, current() at each accept.
//
// Thread-safety: every method may be called from any thread; loads are serialised, and current()
// never waits for a load in progress.

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "webhook/server/tls_context.h"
#include "webhook/server/trusted_cas.h"

namespace vc::webhook::server {

class CertificateReloader final : public vc::server::TlsContextProvider {
 public:
  CertificateReloader(std::string cert_file, std::string key_file,
                      std::shared_ptr<const TrustedCas> trusted = nullptr);

  // The first load, at start-up: like poll(), but a pair that cannot be loaded is an error.
  // Throws std::runtime_error naming the files and what is wrong.
  void load() override;
  // Re-reads the files; returns true when a new pair was installed.
  bool poll() override;

  // The context new connections should use; null before load().
  SslContextPtr current() const override;
  // Pairs installed so far, the first load included.
  std::uint64_t generation() const;

 private:
  using Digest = std::array<unsigned char, 32>;
  struct Attempt {
    std::string error;  // empty when a new pair was installed or nothing changed
    bool installed = false;
    bool new_content = false;  // the files held a pair not tried before
    bool held = false;         // a valid-looking pair waits for the caBundle (error says why)
  };

  Attempt try_load(bool gated);  // requires load_mu_

  const std::string cert_file_;
  const std::string key_file_;
  const std::shared_ptr<const TrustedCas> trusted_;  // null: no pair is held back

  std::mutex load_mu_;  // serialises loads; guards the members below it
  Digest tried_cert_{};
  Digest tried_key_{};
  bool tried_ = false;
  std::string last_error_;  // the last error logged, so that a missing file is logged once
  std::string last_held_;   // the last hold-back logged, likewise

  mutable std::mutex current_mu_;  // guards current_ and generation_
  ServingCertificate current_;
  std::uint64_t generation_ = 0;
};

}  // namespace vc::webhook::server
