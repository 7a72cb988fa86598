// The admission server: the webhook's Router and certificate reloader on the HTTP server core
// (common/server/http_server.h), which accepts, reads, limits and stops.
#include "webhook/server/admission_server.h"

#include <sched.h>

#include <algorithm>
#include <stdexcept>
#include <thread>
#include <utility>

#include "common/log/log.h"
#include "common/server/http_server.h"
#include "webhook/server/certificate_reloader.h"
#include "webhook/server/metrics.h"
#include "webhook/server/refusals.h"
#include "webhook/server/router.h"

namespace vc::webhook::server {
namespace {

using vc::server::Refusal;

constexpr std::string_view kSelfProbePath = "/healthz";

// The admission endpoints as the core serves them, with the webhook's connection metrics.
class AdmissionService final : public vc::server::HttpService {
 public:
  explicit AdmissionService(Router router) : router_(std::move(router)) {}

  HttpResponse serve(const HttpRequest& request) const override {
    if (request.method == "GET" && target_path(request.target) == kSelfProbePath) {
      return {200, std::string(kTextContentType), "ok"};
    }
    return router_.serve(request);
  }
  std::size_t working_set(const HttpRequest& request) const override {
    return router_.working_set(request);
  }

  HttpResponse refuse(Refusal why, std::string_view target,
                      std::string_view detail) const override {
    switch (why) {
      case Refusal::HeaderTooLarge:
        count_protocol_error("header_too_large");
        return {431, std::string(kTextContentType), "request header too large\n"};
      case Refusal::BodyTooLarge:
        // The header names the path: a known one gets Volcano's 413, any other Go's 404.
        return router_.body_too_large(target);
      case Refusal::OverBudget:
        refused(RefusalReason::OverBudget,
                (target.empty() ? std::string("a request header") : std::string(target)) + ": " +
                    std::string(detail));
        return HttpResponse::busy(std::string(detail));
      case Refusal::Malformed:
        break;
    }
    count_protocol_error("malformed");
    return {400, std::string(kTextContentType),
            "malformed HTTP request: " + std::string(detail) + "\n"};
  }

  void connection_opened() const override { vc::webhook::server::connection_opened(); }
  void connection_closed() const override { vc::webhook::server::connection_closed(); }
  void connection_rejected(std::size_t limit) const override {
    count_rejected_connection();
    VC_LOG_DEBUG("webhook connection limit reached, closing a new connection", kv("limit", limit));
  }
  void peer_connection_rejected(std::string_view peer, std::size_t limit) const override {
    refused(RefusalReason::PeerConnections,
            std::string(peer) + " holds " + std::to_string(limit) + " busy connections");
  }
  void idle_connection_evicted() const override { count_idle_connection_closed(); }
  void tls_handshake_failed() const override { count_tls_handshake_error(); }
  void request_timed_out(std::string_view phase) const override { count_protocol_error(phase); }

 private:
  const Router router_;
};

void validate(const AdmissionServerOptions& o) {
  const auto fail = [](const std::string& what) {
    throw std::invalid_argument("admission server: " + what);
  };
  if (o.port < 0 || o.port > 65535) fail("port must be in 0..65535, got " + std::to_string(o.port));
  if (o.cert_file.empty() || o.key_file.empty()) fail("a certificate and a key file are required");
  if (o.threads < 0) fail("threads must be >= 0");
  if (o.body_limit == 0 || o.header_limit == 0 || o.max_connections == 0 ||
      o.max_review_values == 0) {
    fail("body_limit, header_limit, max_connections and max_review_values must be positive");
  }
  using std::chrono::milliseconds;
  for (auto t : {o.header_timeout, o.body_timeout, o.write_timeout, o.idle_timeout}) {
    if (t <= milliseconds::zero()) fail("timeouts must be positive");
  }
  if (o.graceful_shutdown < milliseconds::zero() || o.cert_poll_interval < milliseconds::zero() ||
      o.stop_idle_drain < milliseconds::zero()) {
    fail("graceful_shutdown, stop_idle_drain and cert_poll_interval must not be negative");
  }
  if (!busy_poll_in_range(o.busy_poll)) {
    fail("busy_poll must be between " + busy_poll_range());
  }
  if (o.max_inflight_bytes < min_inflight_bytes(o)) {
    fail("max_inflight_bytes " + std::to_string(o.max_inflight_bytes) +
         " cannot hold one review of the largest size: at least " +
         std::to_string(min_inflight_bytes(o)) + " (or 0 for no budget)");
  }
}

vc::server::HttpServerOptions core_options(const AdmissionServerOptions& o,
                                           std::shared_ptr<CertificateReloader> certificates) {
  return {
      .name = "webhook",
      .host = o.listen_address,
      .port = static_cast<std::uint16_t>(o.port),
      .threads = o.threads > 0 ? o.threads : default_worker_threads(),
      .busy_poll = o.busy_poll,
      .header_limit = o.header_limit,
      .body_limit = o.body_limit,
      .header_timeout = o.header_timeout,
      .body_timeout = o.body_timeout,
      .idle_timeout = o.idle_timeout,
      .write_timeout = o.write_timeout,
      .max_connections = o.max_connections,
      .max_connections_per_peer = o.max_connections_per_peer,
      .inflight_budget = o.max_inflight_bytes,
      .graceful_shutdown = o.graceful_shutdown,
      .stop_idle_drain = o.stop_idle_drain,
      .tls = std::move(certificates),
      .tls_poll_interval = o.cert_poll_interval,
  };
}

}  // namespace

std::size_t min_inflight_bytes(const AdmissionServerOptions& o) {
  if (o.max_inflight_bytes == 0) return 0;
  // What one connection reserves for it (http_connection.cpp): header, body, the read in
  // progress (16 KiB) and the decoded tree; large requests get half of the budget.
  constexpr std::size_t kReadChunk = 16 * 1024;
  const std::size_t one = o.header_limit + o.body_limit + kReadChunk +
                          decode_working_set(o.body_limit, {.max_values = o.max_review_values});
  return 2 * one;
}

std::string busy_poll_range() {
  return "0 and " +
         std::to_string(
             std::chrono::duration_cast<std::chrono::milliseconds>(kMaxBusyPoll).count()) +
         "ms";
}

int default_worker_threads() {
  // One thread per CPU the process may run on (its affinity mask, as Go sizes GOMAXPROCS), not
  // per CPU of the machine: a second thread on the same core only preempts the first in the
  // middle of a review, which made p99 latency at concurrency 8 four times the median.
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

AdmissionServer::AdmissionServer(AdmissionServerOptions options, std::vector<Endpoint> endpoints,
                                 std::shared_ptr<const ClusterView> view,
                                 std::shared_ptr<const AdmissionOptions> admission_options) {
  validate(options);
  Router router(std::move(endpoints), std::move(view), std::move(admission_options),
                ReviewLimits{.max_values = options.max_review_values});
  certificates_ = std::make_shared<CertificateReloader>(options.cert_file, options.key_file,
                                                        options.trusted_cas);
  http_ = std::make_unique<vc::server::HttpServer>(
      core_options(options, certificates_), std::make_shared<AdmissionService>(std::move(router)));
}

AdmissionServer::~AdmissionServer() = default;

void AdmissionServer::start() {
  http_->start();
}

bool AdmissionServer::stop() {
  return http_->stop();
}

std::uint16_t AdmissionServer::port() const {
  return http_->port();
}

std::size_t AdmissionServer::inflight_bytes() const {
  return http_->inflight_bytes();
}

bool AdmissionServer::reload_certificate() {
  return certificates_->poll();
}

std::uint64_t AdmissionServer::certificate_generation() const {
  return certificates_->generation();
}

}  // namespace vc::webhook::server
