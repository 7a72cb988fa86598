#pragma once
// The command line of vc-controller-manager (spec controller-manager.md §1.2-§1.5): every flag of
// Volcano's binary with its default (the sharding controller's too, registered even when it is
// off), the leader-election flags, klog's flags, --feature-gates, and ours (--log-format).
//
//   auto parsed = parse_command_line({"--controllers=*,-gc-controller"});
//   if (!parsed) { print parsed.error(); exit 2 }      // pflag's message
//   if (parsed->help) { print parsed->usage; exit 0 }
//   if (auto errors = validate(parsed->options); !errors.empty()) { print; exit 1 }
//
// Thread-safety: pure functions; call at start-up.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "common/api/expected.h"
#include "common/flags/base_options.h"
#include "controllers/framework/controller.h"

namespace vc::controllers::app {

// component-base's leader-election settings with Volcano's defaults
// (spec controller-manager.md §1.4).
struct LeaderElectionOptions {
  bool leader_elect = true;
  std::chrono::nanoseconds lease_duration = std::chrono::seconds(15);
  std::chrono::nanoseconds renew_deadline = std::chrono::seconds(10);
  std::chrono::nanoseconds retry_period = std::chrono::seconds(2);
  std::string resource_lock = "leases";
  std::string resource_name = "vc-controller-manager";
  std::string resource_namespace = "volcano-system";
  // Ours: how long the controllers may take to stop once leadership ends; past it the process
  // exits (exit 1) so that a wedged replica is restarted instead of holding stuck threads
  // (controllers/app/step_down.h). 0 waits forever, as Volcano.
  std::chrono::nanoseconds step_down_timeout = std::chrono::seconds(30);
};

// Flags of the sharding controller (spec controller-manager.md §1.3): registered always, copied
// into ControllerOptions for sharding-controller.
using ShardingOptions = controllers::ShardingOptions;

// The shared flags (--master, --kubeconfig, the TLS files, --healthz-address, --feature-gates,
// klog's, --log-format, ...) are in BaseOptions (common/flags/base_options.h).
struct ControllerManagerOptions : flags::BaseOptions {
  std::string lock_object_namespace;  // deprecated; overrides the lease namespace when set
  bool enable_metrics = false;
  std::string listen_address = ":8081";
  std::vector<std::string> controllers;  // default_controller_gates()
  // --scheduler-name, --worker-threads*, --max-requeue-num, --inherit-owner-annotations and the
  // gates the controllers read (set from feature_gates by parse_command_line).
  ControllerOptions controller;
  LeaderElectionOptions leader_election;
  ShardingOptions sharding;
  // Ours: /healthz fails while one reconcile has run longer than this
  // (controllers/framework/worker_watch.h); 0 disables the check.
  std::chrono::nanoseconds worker_stuck_timeout = std::chrono::minutes(10);

  ControllerManagerOptions();
  // The namespace of the Lease: --lock-object-namespace when set, else
  // --leader-elect-resource-namespace.
  std::string lease_namespace() const;
};

using ParsedCommandLine = flags::ParsedCommandLine<ControllerManagerOptions>;

// Parses args (without the program name). The error is pflag's text, e.g. "unknown flag: --x".
// A negative --max-requeue-num is stored as -1 (unlimited).
api::Expected<ParsedCommandLine> parse_command_line(const std::vector<std::string>& args);

// CheckOptionOrDie: the --controllers check (spec controller-manager.md §1.5) and component-base's
// leader-election checks (when --leader-elect), each message as Volcano / component-base word it,
// plus the checks the elector would otherwise fail at run time (renew deadline > 1.2 x retry
// period, lock type) and ours (--log-format, --kube-api-burst).
std::vector<std::string> validate(const ControllerManagerOptions& options);

// k8s.io/apimachinery's aggregate error text: the one message, or "[a, b]" for several (repeats
// removed).
std::string aggregate(const std::vector<std::string>& errors);

}  // namespace vc::controllers::app
