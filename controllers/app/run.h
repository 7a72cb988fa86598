#pragma once
// The vc-controller-manager process (spec controller-manager.md §1.1, §1.4, §1.8).
//
// controller_manager_main: SIGINT/SIGTERM handling (first: graceful stop, second: exit 1), flags
// (exit 2 on a flag error, 0 after --help or --version), logging, the `FLAG: --name="value"`
// lines at V(1), then run().
//
// run, in order:
//   option checks (aggregated, on stderr)                            -> exit 1
//   with all three TLS flags: the CA, certificate and key files read -> exit 1
//     ("Failed to parse CA file: ...")
//   client from --master/--kubeconfig/in-cluster, --kube-api-qps/-burst -> exit 1
//   health server (--enable-healthz, --healthz-address): /healthz, /healthz/ping, /readyz
//                                                                   -> exit 1 if it cannot bind
//   metrics server (--enable-metrics, --listen-address): /metrics     -> exit 255 if it cannot bind
//   --controllers applied to the registry (disabled and unimplemented names logged)
//   with --leader-elect: campaign on Lease <namespace>/<name> with a separate client; each time
//     we lead, a new term runs the controllers (manager.h); losing the lease stops them and we
//     campaign again, without exiting. Without it: one term from the start.
//   stop requested -> the term's controllers stop, the Lease is released, servers stop -> exit 0.
//
// Thread-safety: run blocks the calling thread until stop is requested.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>

#include "common/kube/config.h"
#include "controllers/app/manager.h"
#include "controllers/app/options.h"
#include "controllers/framework/registry.h"

namespace vc::controllers::app {

// Knobs that are not flags; tests use them to inject fakes.
struct RunSettings {
  // The controllers to choose from; null means the built-in ones.
  const ControllerRegistry* registry = nullptr;
  // Used instead of --master/--kubeconfig/in-cluster when set.
  std::optional<kube::Config> config;
  // Leader-election identity; empty means make_identity() (<hostname>_<uuid>).
  std::string identity;
  ManagerSettings manager;
  // Called once the servers listen, with their ports (0 when disabled).
  std::function<void(std::uint16_t health_port, std::uint16_t metrics_port)> on_serving;
};

int run(const ControllerManagerOptions& options, std::stop_token stop,
        const RunSettings& settings = {});

// argv[0] is the program name.
int controller_manager_main(int argc, char** argv);

}  // namespace vc::controllers::app
