#pragma once
// The vc-webhook-manager process (spec webhook.md §4.2).
//
// webhook_main: flags (exit 2 on a flag error, 0 after --help or --version), logging, the
// `FLAG: --name="value"` lines at V(1), SIGINT/SIGTERM handling, then run().
//
// run, in order:
//   port check, then the CA, certificate and key files are read  -> exit 255 (klog.Fatalf)
//   the other flag checks                                         -> exit 1
//   health server (--enable-healthz)                              -> exit 1 if it cannot bind
//   client from --master/--kubeconfig/in-cluster, GET /version    -> exit 1 on failure
//   --admission-conf loaded (a bad file only turns pods/mutate off)
//   Queue informer started
//   caBundle of every enabled path's configuration (ca_bundle_sync.h) -> exit 1 on failure
//   Queue cache synced within cache_sync_timeout                   -> exit 1 on failure
//   admission server listening; --admission-conf watched
//   stop requested -> the admission server stops within --graceful-shutdown-time -> exit 0
//   (exit 1 "close admission server failed: context deadline exceeded" when reviews were still
//   running). A stop during start-up ends it promptly with exit 0.
//
// Thread-safety: run blocks the calling thread until stop is requested.

#include <chrono>
#include <cstdint>
#include <functional>
#include <stop_token>

#include "webhook/app/ca_bundle_sync.h"
#include "webhook/app/options.h"

namespace vc::webhook::app {

// Knobs that are not flags; tests shorten the waits.
struct RunSettings {
  CaBundleSyncOptions ca_bundle;
  std::chrono::milliseconds cache_sync_timeout{std::chrono::minutes(2)};
  std::chrono::milliseconds version_timeout{std::chrono::seconds(30)};
  std::chrono::milliseconds admission_conf_poll{std::chrono::seconds(1)};
  // Called once the admission server listens, with its port and the health server's (0 when
  // disabled).
  std::function<void(std::uint16_t port, std::uint16_t health_port)> on_serving;
};

int run(const WebhookOptions& options, std::stop_token stop, const RunSettings& settings = {});

// argv[0] is the program name.
int webhook_main(int argc, char** argv);

}  // namespace vc::webhook::app
