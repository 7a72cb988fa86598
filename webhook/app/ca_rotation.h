#pragma once
// CaRotation: keeps the caBundle of every enabled path's webhook configuration in step with
// --ca-cert-file while the webhook runs, so that a CA rotation never fails an admission (Volcano
// writes the caBundle at start-up only; docs/compat.md).
//
// A rotation, as the kubelet delivers it (the Secret's tls.crt, tls.key and ca.crt change in one
// symlink swap):
//   1. check() sees new bytes in the CA file and writes, into every caBundle, the file followed
//      by the CA the bundle held before (plan_ca_bundle with keep_previous): the API server then
//      trusts the pair being served and the new one.
//   2. Meanwhile the certificate reloader holds the new pair back: its CA is not yet in
//      TrustedCas (webhook/server/trusted_cas.h), so the old pair keeps being served.
//   3. Once every write is confirmed, check() waits `settle` (each API server applies the new
//      caBundle from its own watch, a moment later), then trusts the file's CAs and calls
//      on_trusted, which reloads the pair at once: the new pair is served.
// A failed write is logged and retried at the next poll; until it succeeds the old pair stays.
//
//   CaRotation rotation(client, "/etc/certs/ca.crt", targets, trusted, [&] { reload(); }, {});
//   rotation.start(initial_ca);   // the CA start-up registered
//   ...
//   rotation.stop();
//
// Thread-safety: check() is serialised; start() and stop() from the owning thread.

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "common/kube/client.h"
#include "webhook/app/ca_bundle_sync.h"
#include "webhook/server/trusted_cas.h"

namespace vc::webhook::app {

struct CaRotationOptions {
  // --ca-cert-poll-interval: how often the CA file is read.
  std::chrono::milliseconds poll_interval{1000};
  // --ca-bundle-settle: the wait between a confirmed caBundle write and serving a pair of the
  // new CA, for the API servers' webhook caches to take the new bundle.
  std::chrono::milliseconds settle{2000};
  CaBundleSyncOptions sync{};
};

// One configuration to keep current: an enabled path and whether it is a mutating one.
struct CaTarget {
  std::string path;
  bool mutating = false;
};

class CaRotation {
 public:
  enum class Outcome { Unchanged, Registered, Failed };

  CaRotation(kube::Client& client, std::string ca_file, std::vector<CaTarget> targets,
             std::shared_ptr<server::TrustedCas> trusted, std::function<void()> on_trusted,
             CaRotationOptions options);
  ~CaRotation();  // stop()
  CaRotation(const CaRotation&) = delete;
  CaRotation& operator=(const CaRotation&) = delete;

  // Records the CA registered at start-up (trusted from now on) and polls every poll_interval on
  // a background thread until stop().
  void start(const std::string& registered_ca);
  void stop();

  // One poll: reads the CA file and, when it differs from the CA last registered, registers it
  // (steps 1 and 3 above). Failed when the file cannot be read or a write failed (logged).
  Outcome check(std::stop_token stop = {});
  // Records ca as registered and trusted, without writing (start-up did).
  void registered(const std::string& ca);

 private:
  kube::Client& client_;
  const std::string ca_file_;
  const std::vector<CaTarget> targets_;
  const std::shared_ptr<server::TrustedCas> trusted_;
  const std::function<void()> on_trusted_;
  const CaRotationOptions options_;

  std::mutex mu_;           // serialises check(); guards the members below
  std::string current_;     // the CA file's bytes as last registered
  std::string last_error_;  // logged once per distinct error
  std::jthread thread_;
};

}  // namespace vc::webhook::app
