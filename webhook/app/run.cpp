#include "webhook/app/run.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>

#include "common/flags/version.h"
#include "common/go/duration.h"
#include "common/kube/cache/informer.h"
#include "common/log/log.h"
#include "common/metrics/build_info.h"
#include "webhook/app/admission_conf.h"
#include "webhook/app/admission_probe.h"
#include "webhook/app/ca_rotation.h"
#include "webhook/app/endpoints.h"
#include "webhook/app/health.h"
#include "webhook/app/informer_cluster_view.h"
#include "webhook/app/read_file.h"
#include "webhook/app/server_version.h"
#include "webhook/server/admission_server.h"
#include "webhook/server/trusted_cas.h"

namespace vc::webhook::app {
namespace {

using Clock = std::chrono::steady_clock;

// Exit codes: klog.Fatalf exits 255, a returned error 1.
constexpr int kExitFatal = 255;
constexpr int kExitError = 1;

// Volcano reads all three files before anything else; the bytes of the CA become the caBundle.
api::Expected<std::string> read_certificate_files(const WebhookOptions& o) {
  auto ca = read_file(o.ca_cert_file);
  if (!ca)
    return api::Unexpected{"failed to read cacert file (" + o.ca_cert_file + "): " + ca.error()};
  if (auto cert = read_file(o.tls_cert_file); !cert) {
    return api::Unexpected{"failed to read cert file (" + o.tls_cert_file + "): " + cert.error()};
  }
  if (auto key = read_file(o.tls_private_key_file); !key) {
    return api::Unexpected{"failed to read key file (" + o.tls_private_key_file +
                           "): " + key.error()};
  }
  return std::move(ca).value();
}

AdmissionOptions admission_options(const WebhookOptions& o, const flags::FeatureGates& gates) {
  AdmissionOptions a;
  a.scheduler_names = o.scheduler_names;
  a.max_queue_depth = o.max_queue_depth;
  a.enable_root_queue_protection = o.enable_root_queue_protection;
  a.enable_queue_allocated_pods_check = o.enable_queue_allocated_pods_check;
  a.scheduling_gates_queue_admission = gates.enabled(kSchedulingGatesQueueAdmission);
  a.pod_level_resources = gates.enabled(kPodLevelResources);
  return a;
}

// --live-lookup-*, with -1 concurrency resolved against the webhook's threads.
LiveLookupOptions live_lookup_options(const WebhookOptions& o) {
  const int threads = o.webhook_threads > 0 ? o.webhook_threads : server::default_worker_threads();
  return LiveLookupOptions{
      .timeout = std::chrono::duration_cast<std::chrono::milliseconds>(o.live_lookup_timeout),
      .concurrency = o.live_lookup_concurrency >= 0 ? o.live_lookup_concurrency : threads / 2,
      .negative_ttl =
          std::chrono::duration_cast<std::chrono::milliseconds>(o.live_lookup_negative_ttl),
      .negative_capacity = static_cast<std::size_t>(o.live_lookup_negative_cache_size)};
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

void wait_for_stop(std::stop_token stop) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  cv.wait(lock, stop, [] { return false; });
}

// Logs why start-up ended; a stop request during start-up is a clean exit.
int startup_failed(std::stop_token stop, const std::string& message) {
  if (stop.stop_requested()) {
    VC_LOG_INFO("stopped during start-up", kv("step", message));
    return 0;
  }
  VC_LOG_ERROR(message);
  return kExitError;
}

}  // namespace

int run(const WebhookOptions& o, std::stop_token stop, const RunSettings& settings) {
  vc::metrics::register_build_info("vc-webhook-manager", vc::flags::build_info());
  if (auto port = check_port(o); !port) {
    VC_LOG_ERROR(port.error());
    return kExitFatal;
  }
  auto ca = read_certificate_files(o);
  if (!ca) {
    VC_LOG_ERROR("Failed to parse CA file: " + ca.error());
    return kExitFatal;
  }
  if (auto errors = validate(o); !errors.empty()) {
    for (const auto& e : errors) VC_LOG_ERROR(e);
    return kExitError;
  }
  auto endpoints = select_endpoints(enabled_paths(o.enabled_admission));
  if (!endpoints) return startup_failed(stop, endpoints.error());

  // Declared in this order so that they are destroyed in the reverse one: the health server (whose
  // checks read the informer) before the informer, the informer (whose threads use the client)
  // before the client.
  std::unique_ptr<kube::Client> client;
  std::shared_ptr<kube::cache::Informer> queues;
  std::shared_ptr<kube::cache::Informer> namespaces;  // only with /podgroups/mutate
  std::unique_ptr<vc::server::Server> health;

  // The health server comes first, as in Volcano; it is ready once the cache has synced and the
  // admission server listens.
  auto serving = std::make_shared<std::atomic<bool>>(false);
  if (o.enable_healthz) {
    try {
      health = make_health_server(o.healthz_address);
      health->start();
    } catch (const std::exception& e) {
      return startup_failed(stop, std::string("failed to start the health server: ") + e.what());
    }
    health->add_ready_check("webhook-listening", [serving] { return serving->load(); });
    VC_LOG_INFO("health server listening", kv("address", o.healthz_address),
                kv("port", health->port()));
  }

  kube::Config config;
  try {
    config = kube::Config::load(o.kubeconfig, o.master);
    client = std::make_unique<kube::Client>(
        // Queues (Volcano's group) and namespaces use separate token buckets, as Volcano's two
        // clientsets do.
        config, kube::ClientOptions{.qps = o.kube_api_qps,
                                    .burst = o.kube_api_burst,
                                    .own_bucket_group_suffix = ".volcano.sh",
                                    .user_agent = "vc-webhook-manager/" VC_VERSION,
                                    .content_type = o.kube_api_content_type});
  } catch (const std::exception& e) {
    return startup_failed(stop, std::string("unable to build k8s config: ") + e.what());
  }
  VC_LOG_V(2, "API server", kv("server", config.server));

  auto version =
      get_server_version(config, "vc-webhook-manager/" VC_VERSION, settings.version_timeout, stop);
  if (!version) return startup_failed(stop, version.error());
  flags::FeatureGates gates = o.feature_gates;
  if (!gates.explicitly_set(kPodLevelResources)) {
    const bool on = pod_level_resources_default(*version);
    gates.set_default(kPodLevelResources, on, on ? flags::Stage::Beta : flags::Stage::Alpha);
  }
  VC_LOG_INFO("connected to the API server", kv("server", config.server),
              kv("version", version->git_version),
              kv("pod_level_resources", gates.enabled(kPodLevelResources)));

  auto live = std::make_shared<LiveOptions>(admission_options(o, gates));
  std::unique_ptr<AdmissionConfWatcher> conf_watcher;
  if (!o.admission_conf.empty()) {
    conf_watcher = std::make_unique<AdmissionConfWatcher>(o.admission_conf, live,
                                                          settings.admission_conf_poll);
    if (!conf_watcher->load_initial()) {
      VC_LOG_ERROR("loadAdmissionConf failed: pods/mutate stays off until the file is valid",
                   kv("file", o.admission_conf));
    }
  }

  // Started before the caBundle work so that the list runs meanwhile.
  queues = std::make_shared<kube::cache::Informer>(*client, kube::resources::queues);
  add_queue_parent_index(*queues);
  queues->start();
  if (health) {
    health->add_ready_check("queue-cache-synced",
                            [informer = queues.get()] { return informer->has_synced(); });
  }
  // /podgroups/mutate reads each PodGroup's namespace. Start-up does not wait for this cache:
  // until it has synced (or where the role lacks list/watch on namespaces), reads are live.
  const bool reads_namespaces =
      std::any_of(endpoints->begin(), endpoints->end(),
                  [](const Endpoint& e) { return e.path == "/podgroups/mutate"; });
  if (reads_namespaces) {
    namespaces = std::make_shared<kube::cache::Informer>(*client, kube::resources::namespaces,
                                                         namespace_informer_options());
    namespaces->start();
  }

  CaBundleSyncOptions ca_sync = settings.ca_bundle;
  ca_sync.keep_previous = o.ca_bundle_keep_previous;
  std::vector<CaTarget> ca_targets;
  for (const auto& endpoint : *endpoints) {
    VC_LOG_V(3, "adding caBundle for webhook", kv("path", endpoint.path));
    ca_targets.push_back({endpoint.path, endpoint.mutating});
    auto synced = sync_ca_bundle(*client, endpoint.path, endpoint.mutating, *ca, ca_sync, stop);
    if (!synced) return startup_failed(stop, "failed to add caCert for webhook " + synced.error());
  }
  VC_LOG_V(3, "caBundle is current for every webhook");

  if (!queues->wait_for_sync(stop, Clock::now() + settings.cache_sync_timeout)) {
    return startup_failed(
        stop, "failed to sync cache: " + kube::resources::queues.qualified() +
                  " did not sync within " + go::format_duration(settings.cache_sync_timeout) +
                  " (is the API server reachable and may this account list and watch queues?)");
  }

  std::vector<std::string> paths;
  for (const auto& endpoint : *endpoints) paths.push_back(endpoint.path);
  auto trusted = std::make_shared<server::TrustedCas>();
  const auto lookups = live_lookup_options(o);
  VC_LOG_INFO("live reads during reviews", kv("timeout", go::format_duration(lookups.timeout)),
              kv("concurrency", lookups.concurrency),
              kv("negative_ttl", go::format_duration(lookups.negative_ttl)));
  auto view = std::make_shared<InformerClusterView>(
      queues, namespaces, std::make_shared<LiveLookups>(*client, lookups));
  server::AdmissionServer admission(
      server::AdmissionServerOptions{
          .listen_address = o.listen_address,
          .port = o.port,
          .cert_file = o.tls_cert_file,
          .key_file = o.tls_private_key_file,
          .threads = o.webhook_threads,
          .max_connections_per_peer = static_cast<std::size_t>(o.max_connections_per_peer),
          .max_inflight_bytes = static_cast<std::size_t>(o.max_inflight_bytes),
          .max_review_values = static_cast<std::size_t>(o.max_review_values),
          .graceful_shutdown =
              std::chrono::duration_cast<std::chrono::milliseconds>(o.graceful_shutdown_time),
          .busy_poll = std::chrono::duration_cast<std::chrono::microseconds>(o.busy_poll),
          .trusted_cas = trusted},
      with_live_options(std::move(*endpoints), live), view, live->current());
  try {
    admission.start();
  } catch (const std::exception& e) {
    return startup_failed(
        stop, std::string("ListenAndServeTLS for admission webhook failed: ") + e.what());
  }
  serving->store(true);
  // From here a rotated CA file reaches every caBundle before a pair it signed is served.
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  CaRotation rotation(
      *client, o.ca_cert_file, std::move(ca_targets), trusted,
      [&admission] { admission.reload_certificate(); },
      CaRotationOptions{.poll_interval = duration_cast<milliseconds>(o.ca_cert_poll_interval),
                        .settle = duration_cast<milliseconds>(o.ca_bundle_settle),
                        .sync = ca_sync});
  rotation.start(*ca);
  std::shared_ptr<AdmissionProbe> probe;
  if (health) {
    probe = std::make_shared<AdmissionProbe>(
        probe_host(o.listen_address), admission.port(),
        AdmissionProbeOptions{
            .interval = duration_cast<milliseconds>(o.self_probe_interval),
            .timeout = duration_cast<milliseconds>(o.self_probe_timeout),
            .stall_timeout = duration_cast<milliseconds>(o.admission_stall_timeout)});
    probe->start();
    health->add_ready_check("admission-tls", [probe] { return probe->ready(); });
    health->add_health_check("admission-threads", [probe] { return probe->live(); });
  }
  VC_LOG_INFO("serving admission webhooks",
              kv("address", o.listen_address + ":" + std::to_string(o.port)),
              kv("paths", join(paths)));
  if (conf_watcher) conf_watcher->start();
  if (settings.on_serving) settings.on_serving(admission.port(), health ? health->port() : 0);

  wait_for_stop(stop);
  serving->store(false);
  rotation.stop();
  if (probe) probe->stop();
  VC_LOG_INFO("stopping the admission server",
              kv("grace", go::format_duration(o.graceful_shutdown_time)));
  const bool clean = admission.stop();
  if (conf_watcher) conf_watcher->stop();
  queues->stop();
  if (namespaces) namespaces->stop();
  if (health) health->stop();
  if (!clean) {
    VC_LOG_ERROR("close admission server failed: context deadline exceeded");
    return kExitError;
  }
  VC_LOG_INFO("Volcano Webhook manager stopped.");
  return 0;
}

}  // namespace vc::webhook::app
