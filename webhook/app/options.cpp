#include "webhook/app/options.h"

#include <set>

#include "webhook/app/endpoints.h"
#include "webhook/server/admission_server.h"

namespace vc::webhook::app {
namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\n\v\f\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\n\v\f\r");
  return s.substr(first, last - first + 1);
}

void add_flags(flags::FlagSet& fs, WebhookOptions& o) {
  flags::add_base_flags(
      fs, o,
      {.ca_cert_file = "PEM CA certificate written into the webhook configurations' caBundle.",
       .version = "Print the version and exit.",
       .enable_healthz = "Serve /healthz, /readyz and /metrics on --healthz-address.",
       .healthz_address = "Address of the health server.",
       .feature_gates =
           "Feature gates, key=value pairs: Volcano's (SchedulingGatesQueueAdmission=false, "
           "CSIStorage=false, CronVolcanoJobSupport=true, PodDisruptionBudgetsSupport=true, "
           "PriorityClass=true, QueueCommandSync=true, ResourceTopology=true, "
           "VolcanoJobSupport=true, WorkLoadSupport=true), AllAlpha, AllBeta, and every "
           "Kubernetes v1.35 gate; of those only PodLevelResources is read (default: on for "
           "clusters from v1.34)."});
  fs.string_var("listen-address", &o.listen_address,
                "Host or IP to bind the admission server to; empty means every interface.");
  fs.int_var("port", &o.port, "Port of the admission server.");
  fs.string_var("webhook-namespace", &o.webhook_namespace, "Namespace of the webhook Service.");
  fs.string_var("webhook-service-name", &o.webhook_service_name, "Name of the webhook Service.");
  fs.string_var("webhook-url", &o.webhook_url,
                "URL of the webhook when it is not reached through a Service.");
  fs.string_var("enabled-admission", &o.enabled_admission,
                "Comma-separated admission paths to serve; each needs its webhook "
                "configuration to exist.");
  fs.string_array_var("scheduler-name", &o.scheduler_names,
                      "Scheduler name(s) whose pods and jobs Volcano handles; repeat the flag "
                      "for several.");
  fs.string_var("admission-conf", &o.admission_conf,
                "Pod admission configuration file (resource groups); re-read when it changes.");
  fs.duration_var("graceful-shutdown-time", &o.graceful_shutdown_time,
                  "How long reviews in flight may take to finish after SIGTERM.");
  fs.bool_var("enable-queue-allocated-pods-check", &o.enable_queue_allocated_pods_check,
              "Deny deleting a queue that still has allocated pods.");
  fs.int_var("max-queue-depth", &o.max_queue_depth, "Deepest allowed queue hierarchy.");
  fs.bool_var("enable-root-queue-protection", &o.enable_root_queue_protection,
              "Deny changes to the root queue's capability, deserved and guarantee.");
  fs.int_var("webhook-threads", &o.webhook_threads,
             "Threads running admission reviews; 0 means one per CPU the process may run on "
             "(its CPU affinity).");
  fs.duration_var("busy-poll", &o.busy_poll,
                  "With one webhook thread: how long it keeps polling for the next request after "
                  "its last one before it sleeps (between " +
                      server::busy_poll_range() +
                      "; 0 disables). Saves the wake-up "
                      "of each request when they come one after another, at the cost of that much "
                      "CPU after each burst.");
  fs.duration_var("ca-cert-poll-interval", &o.ca_cert_poll_interval,
                  "How often --ca-cert-file is read; a new CA is added to every caBundle before "
                  "a serving certificate it signed is used.");
  fs.duration_var("ca-bundle-settle", &o.ca_bundle_settle,
                  "After a caBundle update with a new CA is confirmed, how long to wait before "
                  "serving a certificate that CA signed (the API servers' caches catch up).");
  fs.int_var("ca-bundle-keep-previous", &o.ca_bundle_keep_previous,
             "How many CAs no longer in --ca-cert-file stay in the caBundle after it, so that "
             "replicas still serving the previous certificate keep being trusted (0: the file "
             "only, as Volcano).");
  fs.duration_var("self-probe-interval", &o.self_probe_interval,
                  "How often the health server dials the admission port over TLS (GET /healthz) "
                  "to answer /readyz and /healthz.");
  fs.duration_var("self-probe-timeout", &o.self_probe_timeout,
                  "Deadline of one such dial (connect, handshake, request and answer together).");
  fs.duration_var("admission-stall-timeout", &o.admission_stall_timeout,
                  "/healthz fails when no dial of the admission port has succeeded for this "
                  "long (the admission threads are wedged).");
  fs.duration_var("live-lookup-timeout", &o.live_lookup_timeout,
                  "Deadline of a read from the API server made during a review, for a queue or "
                  "namespace the informers do not hold yet (more than 0, less than 10s, the API "
                  "server's default webhook timeout). Such a read never waits for a "
                  "--kube-api-qps token: with none free it is not made.");
  fs.int_var("live-lookup-concurrency", &o.live_lookup_concurrency,
             "How many such reads may be in flight at once; a review beyond that does not read "
             "and is answered as when the read fails. -1: half the webhook threads, rounded down "
             "(none with one thread), so that slow reads never hold every thread; 0: never read "
             "live.");
  fs.duration_var("live-lookup-negative-ttl", &o.live_lookup_negative_ttl,
                  "How long a queue or namespace the API server just reported missing is "
                  "answered as missing without another read (the informers are still consulted "
                  "first); 0 disables.");
  fs.int_var("live-lookup-negative-cache-size", &o.live_lookup_negative_cache_size,
             "How many such missing names are remembered at most (the oldest are forgotten "
             "first).");
  fs.int64_var("max-inflight-bytes", &o.max_inflight_bytes,
               "Bytes all admission requests in flight may hold together: headers, bodies and "
               "the trees decoded from them. A request that would go over gets 429 with "
               "Retry-After at once; requests over 256 KiB share half of it. Set it to about 40% "
               "of the container's memory limit (the chart does); 0 means no budget.");
  fs.int_var("max-connections-per-peer", &o.max_connections_per_peer,
             "Connections one client address may hold; when full, that address's longest-idle "
             "connection is closed for the new one, or with none idle the new one is. 0 means "
             "no cap.");
  fs.int64_var("max-review-values", &o.max_review_values,
               "JSON values (objects, arrays, scalars) an AdmissionReview may hold; a larger one "
               "is refused with 400 before more is decoded.");
}

}  // namespace

std::vector<flags::FeatureSpec> WebhookOptions::default_feature_gates() {
  auto gates = flags::volcano_feature_gates();
  // Beta and on by default since Kubernetes v1.34 (the version our Kubernetes libraries match);
  // run() moves the default to the cluster's version.
  gates.push_back({kPodLevelResources, true, flags::Stage::Beta});
  return gates;
}

api::Expected<ParsedCommandLine> parse_command_line(const std::vector<std::string>& args) {
  return flags::parse_command_line<WebhookOptions>("vc-webhook-manager", args, add_flags);
}

api::Status check_port(const WebhookOptions& o) {
  if (o.port < 1 || o.port > 65535) {
    return api::Unexpected{
        "Configured port is invalid: the port should be in the range of 1 and 65535"};
  }
  return api::ok_status();
}

std::vector<std::string> enabled_paths(const std::string& enabled_admission) {
  std::vector<std::string> out;
  const std::string_view all = trim(enabled_admission);
  if (all.empty()) return out;
  size_t start = 0;
  while (start <= all.size()) {
    const size_t comma = std::min(all.find(',', start), all.size());
    const std::string_view entry = trim(all.substr(start, comma - start));
    start = comma + 1;
    if (!entry.empty()) out.emplace_back(entry);
  }
  return out;
}

std::vector<std::string> validate(const WebhookOptions& o) {
  std::vector<std::string> errors;
  if (o.webhook_url.empty() && o.webhook_namespace.empty() && o.webhook_service_name.empty()) {
    errors.emplace_back(
        "failed to start webhooks as both 'url' and 'namespace/name' of webhook are empty");
  }
  std::set<std::string> served;
  for (const auto& endpoint : all_endpoints()) served.insert(endpoint.path);
  for (const auto& path : enabled_paths(o.enabled_admission)) {
    if (!served.contains(path)) {
      errors.push_back("enabled admission " + path + " not found on the admission registered map");
    }
  }
  flags::validate_base(o, errors);
  if (o.webhook_threads < 0) {
    errors.push_back("invalid --webhook-threads " + std::to_string(o.webhook_threads) +
                     ": must be 0 (one per core) or more");
  }
  if (!server::busy_poll_in_range(o.busy_poll)) {
    errors.push_back("invalid --busy-poll: must be between " + server::busy_poll_range());
  }
  for (const auto& [name, value] :
       {std::pair{"--ca-cert-poll-interval", o.ca_cert_poll_interval},
        std::pair{"--self-probe-interval", o.self_probe_interval},
        std::pair{"--self-probe-timeout", o.self_probe_timeout},
        std::pair{"--admission-stall-timeout", o.admission_stall_timeout}}) {
    if (value.count() <= 0) errors.push_back(std::string("invalid ") + name + ": must be positive");
  }
  if (o.ca_bundle_settle.count() < 0) {
    errors.emplace_back("invalid --ca-bundle-settle: must not be negative");
  }
  if (o.ca_bundle_keep_previous < 0) {
    errors.emplace_back("invalid --ca-bundle-keep-previous: must be 0 or more");
  }
  if (o.admission_stall_timeout <= o.self_probe_interval + o.self_probe_timeout) {
    errors.emplace_back(
        "invalid --admission-stall-timeout: must be longer than --self-probe-interval plus "
        "--self-probe-timeout");
  }
  if (o.max_inflight_bytes < 0) {
    errors.emplace_back("invalid --max-inflight-bytes: must be 0 (no budget) or more");
  } else if (o.max_review_values > 0) {
    const server::AdmissionServerOptions sized{
        .max_inflight_bytes = static_cast<std::size_t>(o.max_inflight_bytes),
        .max_review_values = static_cast<std::size_t>(o.max_review_values)};
    if (const std::size_t least = server::min_inflight_bytes(sized);
        sized.max_inflight_bytes < least) {
      errors.push_back("invalid --max-inflight-bytes " + std::to_string(o.max_inflight_bytes) +
                       ": one review of the largest size (3 MiB, decoded with up to "
                       "--max-review-values values) needs at least " +
                       std::to_string(least) +
                       " (requests over 256 KiB share half); raise it, "
                       "lower --max-review-values, or use 0 for no budget");
    }
  }
  if (o.max_connections_per_peer < 0) {
    errors.emplace_back("invalid --max-connections-per-peer: must be 0 (no cap) or more");
  }
  if (o.max_review_values <= 0) {
    errors.emplace_back("invalid --max-review-values: must be positive");
  }
  if (o.graceful_shutdown_time.count() < 0) {
    errors.emplace_back("invalid --graceful-shutdown-time: must not be negative");
  }
  if (o.live_lookup_timeout <= std::chrono::nanoseconds::zero() ||
      o.live_lookup_timeout >= std::chrono::seconds(10)) {
    errors.emplace_back("invalid --live-lookup-timeout: must be more than 0 and less than 10s");
  }
  if (o.live_lookup_concurrency < -1) {
    errors.push_back("invalid --live-lookup-concurrency " +
                     std::to_string(o.live_lookup_concurrency) +
                     ": must be -1 (half the webhook threads), 0 (never) or more");
  }
  if (o.live_lookup_negative_ttl.count() < 0) {
    errors.emplace_back("invalid --live-lookup-negative-ttl: must not be negative");
  }
  if (o.live_lookup_negative_cache_size < 0) {
    errors.emplace_back("invalid --live-lookup-negative-cache-size: must not be negative");
  }
  return errors;
}

}  // namespace vc::webhook::app
