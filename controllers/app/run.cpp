#include "controllers/app/run.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>
#include <utility>

#include "common/flags/version.h"
#include "common/go/duration.h"
#include "common/kube/leaderelection/identity.h"
#include "common/kube/leaderelection/leader_elector.h"
#include "common/log/log.h"
#include "common/metrics/build_info.h"
#include "common/process/main.h"
#include "common/server/server.h"
#include "controllers/app/builtin.h"
#include "controllers/app/step_down.h"
#include "controllers/framework/worker_watch.h"

namespace vc::controllers::app {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

// Exit codes: klog.Fatal exits 255, a returned error 1.
constexpr int kExitFatal = 255;
constexpr int kExitError = 1;
constexpr const char* kUserAgent = "vc-controller-manager/" VC_VERSION;
// Watches read what has arrived, then wait this long before reading again: a burst of pod
// events costs one wake-up per batch instead of one per event (bench-controller: the pod
// reflector's CPU fell by a quarter). Far below the job controller's own 1 s batching of pod
// events (docs/compat.md).
constexpr std::chrono::milliseconds kWatchReadPause{20};

// Whether the whole file can be read.
api::Status check_readable(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return api::Unexpected{"open " + path + ": no such file or unreadable"};
  std::ostringstream data;
  data << in.rdbuf();
  if (in.bad()) return api::Unexpected{"read " + path + ": I/O error"};
  return api::ok_status();
}

// Volcano reads the three files when all are given; they would serve /healthz over TLS.
api::Status check_tls_files(const ControllerManagerOptions& o) {
  if (o.ca_cert_file.empty() || o.tls_cert_file.empty() || o.tls_private_key_file.empty()) {
    return api::ok_status();
  }
  for (const auto& [what, path] :
       {std::pair{"cacert", &o.ca_cert_file}, std::pair{"cert", &o.tls_cert_file},
        std::pair{"key", &o.tls_private_key_file}}) {
    if (auto readable = check_readable(*path); !readable) {
      return api::Unexpected{"failed to read " + std::string(what) + " file (" + *path +
                             "): " + readable.error()};
    }
  }
  return api::ok_status();
}

void wait_for_stop(std::stop_token stop) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  cv.wait(lock, stop, [] { return false; });
}

kube::leaderelection::LeaderElectionConfig elector_config(const ControllerManagerOptions& o,
                                                          std::string identity) {
  const LeaderElectionOptions& l = o.leader_election;
  kube::leaderelection::LeaderElectionConfig c;
  c.lease_namespace = o.lease_namespace();
  c.lease_name = l.resource_name;
  c.identity = std::move(identity);
  // The Lease stores whole seconds, as client-go truncates.
  c.lease_duration = duration_cast<std::chrono::seconds>(l.lease_duration);
  c.renew_deadline = duration_cast<milliseconds>(l.renew_deadline);
  c.retry_period = duration_cast<milliseconds>(l.retry_period);
  c.release_on_stop = true;
  return c;
}

// The elector's own client: its requests must not queue behind the controllers' rate limiter,
// and a hung request must end well within the renew deadline.
kube::ClientOptions elector_client_options(const ControllerManagerOptions& o) {
  kube::ClientOptions c;
  c.qps = o.kube_api_qps;
  c.burst = o.kube_api_burst;
  c.user_agent = std::string(kUserAgent) + "/leader-election";
  c.content_type = o.kube_api_content_type;
  c.request_timeout = std::max(milliseconds(500),
                               duration_cast<milliseconds>(o.leader_election.renew_deadline / 2));
  c.max_retries = 0;
  return c;
}

void log_selection(const Selection& s) {
  for (const auto& name : s.disabled) VC_LOG_INFO("Controller " + name + " is not enable");
  std::string names;
  for (const auto& r : s.enabled) names += (names.empty() ? "" : ",") + r.name;
  VC_LOG_INFO("controllers selected", kv("controllers", names));
}

// False while one reconcile has run longer than limit (0: never), with a log line naming it.
bool workers_progress(std::chrono::nanoseconds limit) {
  if (limit <= std::chrono::nanoseconds::zero()) return true;
  const auto stuck = controllers::worker_watch().stuck(
      controllers::WorkerWatch::Clock::now(),
      std::chrono::duration_cast<controllers::WorkerWatch::Clock::duration>(limit));
  if (!stuck) return true;
  VC_LOG_ERROR("a worker is stuck in one reconcile", kv("controller", stuck->controller),
               kv("key", stuck->key),
               kv("running_for",
                  go::format_duration(controllers::WorkerWatch::Clock::now() - stuck->since)));
  return false;
}

}  // namespace

int run(const ControllerManagerOptions& o, std::stop_token stop, const RunSettings& settings) {
  vc::metrics::register_build_info("vc-controller-manager", vc::flags::build_info());
  if (auto errors = validate(o); !errors.empty()) {
    std::fprintf(stderr, "%s\n", aggregate(errors).c_str());
    return kExitError;
  }
  if (auto tls_files = check_tls_files(o); !tls_files) {
    std::fprintf(stderr, "Failed to parse CA file: %s\n", tls_files.error().c_str());
    return kExitError;
  }
  if (!o.ca_cert_file.empty() && !o.tls_cert_file.empty() && !o.tls_private_key_file.empty()) {
    VC_LOG_WARN("the health server is served over plain HTTP; the TLS files are only checked");
  }

  kube::Config config;
  std::unique_ptr<kube::Client> client;
  std::unique_ptr<kube::Client> elector_client;
  try {
    config = settings.config ? *settings.config : kube::Config::load(o.kubeconfig, o.master);
    // Volcano's groups get their own token bucket, as Volcano's second clientset has
    // (spec controller-manager.md §1.6).
    client = std::make_unique<kube::Client>(
        config, kube::ClientOptions{.qps = o.kube_api_qps,
                                    .burst = o.kube_api_burst,
                                    .own_bucket_group_suffix = ".volcano.sh",
                                    .user_agent = kUserAgent,
                                    .watch_read_pause = kWatchReadPause,
                                    .content_type = o.kube_api_content_type});
    if (o.leader_election.leader_elect) {
      elector_client = std::make_unique<kube::Client>(config, elector_client_options(o));
    }
  } catch (const std::exception& e) {
    VC_LOG_ERROR(std::string("unable to build k8s config: ") + e.what());
    return kExitError;
  }
  VC_LOG_V(2, "API server", kv("server", config.server));

  ControllerRegistry builtin;
  register_builtin_controllers(builtin);
  const ControllerRegistry& registry = settings.registry ? *settings.registry : builtin;
  const Selection selection = registry.select(o.controllers);
  // Every controller Volcano knows is built in; a gate that enables one this binary lacks (a
  // test registry, a trimmed build) must not start a controller-manager that silently does
  // less than asked.
  if (!selection.unimplemented.empty()) {
    std::string names;
    for (const auto& name : selection.unimplemented) names += (names.empty() ? "" : ", ") + name;
    std::fprintf(stderr, "--controllers enables controllers this binary does not have: %s\n",
                 names.c_str());
    return kExitError;
  }
  log_selection(selection);

  ControllerManager manager(*client, o.controller, selection.enabled, settings.manager);

  std::unique_ptr<server::Server> health;
  std::unique_ptr<server::Server> metrics;
  if (o.enable_healthz) {
    try {
      health =
          std::make_unique<server::Server>(server::ServerOptions{.address = o.healthz_address});
      health->add_health_check("ping", [] { return true; });
      // A worker stuck in one reconcile fails liveness: the kubelet restarts the container.
      health->add_health_check(
          "workers", [limit = o.worker_stuck_timeout] { return workers_progress(limit); });
      health->add_handler("/healthz/ping",
                          [](const server::Request&) { return server::Response::text(200, "ok"); });
      health->add_ready_check("controllers", [&manager] { return manager.ready(); });
      health->start();
    } catch (const std::exception& e) {
      VC_LOG_ERROR(std::string("failed to create listener: ") + e.what());
      return kExitError;
    }
    VC_LOG_INFO("health server listening", kv("address", o.healthz_address),
                kv("port", health->port()));
  }
  if (o.enable_metrics) {
    try {
      metrics =
          std::make_unique<server::Server>(server::ServerOptions{.address = o.listen_address});
      metrics->start();
    } catch (const std::exception& e) {
      VC_LOG_ERROR(std::string("Prometheus Http Server failed: ") + e.what());
      return kExitFatal;
    }
    VC_LOG_INFO("metrics server listening", kv("address", o.listen_address),
                kv("port", metrics->port()));
  }
  if (settings.on_serving) {
    settings.on_serving(health ? health->port() : 0, metrics ? metrics->port() : 0);
  }

  manager.start();
  if (!o.leader_election.leader_elect) {
    VC_LOG_INFO("leader election disabled: running the controllers now");
    manager.on_started_leading();
    wait_for_stop(stop);
    manager.shutdown();
    VC_LOG_INFO("controllers stopped; exiting");
    return 0;
  }

  std::unique_ptr<kube::leaderelection::LeaderElector> elector;
  try {
    const std::string identity =
        settings.identity.empty() ? kube::leaderelection::make_identity() : settings.identity;
    elector = std::make_unique<kube::leaderelection::LeaderElector>(
        *elector_client, elector_config(o, identity),
        // The controllers' client is fenced the moment leadership ends (the renew deadline
        // passed, or stop): their calls in flight are cancelled and new ones refused, so no
        // write of this term can reach the API server once another replica may lead, even if
        // the controllers take a while to stop. The elector has a client of its own.
        kube::leaderelection::LeaderCallbacks{
            .on_started_leading =
                [&manager, &client] {
                  client->unfence();
                  manager.on_started_leading();
                },
            .on_stopped_leading =
                [&manager, &client, limit = o.leader_election.step_down_timeout] {
                  VC_LOG_INFO("leadership ended: fencing the API client, stopping the controllers");
                  client->fence();
                  run_within([&manager] { manager.on_stopped_leading(); },
                             std::chrono::duration_cast<std::chrono::milliseconds>(limit),
                             [limit] {
                               VC_LOG_ERROR(
                                   "the controllers did not stop after leadership ended; exiting "
                                   "so that the process is restarted",
                                   kv("step_down_timeout", go::format_duration(limit)));
                               std::_Exit(kExitError);
                             });
                },
            .on_new_leader = {}});
    VC_LOG_INFO("leader election",
                kv("lease", o.lease_namespace() + "/" + o.leader_election.resource_name),
                kv("identity", identity));
  } catch (const std::exception& e) {
    VC_LOG_ERROR(std::string("cannot start leader election: ") + e.what());
    manager.shutdown();
    return kExitError;
  }
  elector->start();
  wait_for_stop(stop);
  // Stops the term (on_stopped_leading) before the Lease is released.
  elector->stop();
  manager.shutdown();
  VC_LOG_INFO("controllers stopped and lease released; exiting");
  return 0;
}

int controller_manager_main(int argc, char** argv) {
  return process::run_main(
      "vc-controller-manager", argc, argv, parse_command_line,
      [](const ControllerManagerOptions& o, std::stop_token stop) { return run(o, stop); });
}

}  // namespace vc::controllers::app
