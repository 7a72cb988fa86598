#pragma once
// The command line of vc-webhook-manager (spec webhook.md §4.1): every flag of Volcano's binary
// with its default, klog's flags, --feature-gates, and ours (--log-format, --webhook-threads).
//
//   auto parsed = parse_command_line({"--port=8443", "--enabled-admission=/jobs/mutate"});
//   if (!parsed) { print parsed.error(); exit 2 }      // pflag's message
//   if (parsed->help) { print parsed->usage; exit 0 }
//   if (auto errors = validate(parsed->options); !errors.empty()) ...
//
// Thread-safety: pure functions; call at start-up.

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/api/expected.h"
#include "common/flags/base_options.h"

namespace vc::webhook::app {

// Volcano's binary default; Helm passes its own list (spec webhook.md §1.1).
inline constexpr const char* kDefaultEnabledAdmission =
    "/jobs/mutate,/jobs/validate,/podgroups/mutate,/pods/validate,/pods/mutate,/queues/mutate,"
    "/queues/validate";

inline constexpr const char* kSchedulingGatesQueueAdmission = "SchedulingGatesQueueAdmission";
inline constexpr const char* kPodLevelResources = "PodLevelResources";

// The shared flags (--master, --kubeconfig, the TLS files, --healthz-address, --feature-gates,
// klog's, --log-format, ...) are in BaseOptions (common/flags/base_options.h).
struct WebhookOptions : flags::BaseOptions {
  WebhookOptions() : BaseOptions(default_feature_gates()) {}

  std::string listen_address;
  int port = 8443;
  std::string webhook_namespace;
  std::string webhook_service_name;
  std::string webhook_url;
  std::string enabled_admission = kDefaultEnabledAdmission;
  std::vector<std::string> scheduler_names{"volcano"};
  std::string admission_conf;
  std::chrono::nanoseconds graceful_shutdown_time = std::chrono::seconds(30);
  bool enable_queue_allocated_pods_check = false;
  int max_queue_depth = 5;
  bool enable_root_queue_protection = true;
  // Ours.
  int webhook_threads = 0;  // admission workers; 0 = one per CPU of the affinity mask
  // With one worker, how long it polls after its last request before sleeping
  // (common/server/busy_poll.h).
  std::chrono::nanoseconds busy_poll = std::chrono::microseconds(100);
  // CA rotation (webhook/app/ca_rotation.h): how often --ca-cert-file is read, how long after a
  // confirmed caBundle write a pair of the new CA is served, and how many CAs the file no longer
  // names stay in the caBundle.
  std::chrono::nanoseconds ca_cert_poll_interval = std::chrono::seconds(1);
  std::chrono::nanoseconds ca_bundle_settle = std::chrono::seconds(2);
  int ca_bundle_keep_previous = 1;
  // Probes (webhook/app/admission_probe.h): how often the health server's prober dials the
  // admission port over TLS, the deadline of each dial, and how long without a successful one
  // before /healthz (liveness) fails.
  std::chrono::nanoseconds self_probe_interval = std::chrono::seconds(1);
  std::chrono::nanoseconds self_probe_timeout = std::chrono::seconds(1);
  std::chrono::nanoseconds admission_stall_timeout = std::chrono::seconds(20);
  // Reads from the API server during a review, for an object an informer does not hold
  // (live_lookups.h): their deadline, how many at once (-1: half the webhook threads, rounded
  // down), and how long and how many names a NotFound answer is remembered.
  std::chrono::nanoseconds live_lookup_timeout = std::chrono::seconds(2);
  int live_lookup_concurrency = -1;
  std::chrono::nanoseconds live_lookup_negative_ttl = std::chrono::seconds(10);
  int live_lookup_negative_cache_size = 10000;
  // The admission server's resource budget (webhook/server/admission_server.h); the chart sets
  // --max-inflight-bytes from the container's memory limit.
  std::int64_t max_inflight_bytes = 96 * 1024 * 1024;
  int max_connections_per_peer = 64;
  std::int64_t max_review_values = 250'000;

  // Volcano's gates plus PodLevelResources, whose default follows the cluster version
  // (spec webhook.md §4.2 step 4d).
  static std::vector<flags::FeatureSpec> default_feature_gates();
};

using ParsedCommandLine = flags::ParsedCommandLine<WebhookOptions>;

// Parses args (without the program name). The error is pflag's text, e.g. "unknown flag: --x".
api::Expected<ParsedCommandLine> parse_command_line(const std::vector<std::string>& args);

// The port check Volcano's main makes before anything else; the error is "Configured port is
// invalid: the port should be in the range of 1 and 65535".
api::Status check_port(const WebhookOptions& options);

// The remaining start-up checks, each message as Volcano words it where Volcano has it:
// all three webhook flags empty, an --enabled-admission path that no endpoint serves, a
// --log-format other than text/json, negative --webhook-threads or --graceful-shutdown-time,
// --live-lookup-* out of range.
std::vector<std::string> validate(const WebhookOptions& options);

// --enabled-admission as Volcano reads it: trimmed, split on ',', entries trimmed, empty entries
// skipped.
std::vector<std::string> enabled_paths(const std::string& enabled_admission);

}  // namespace vc::webhook::app
