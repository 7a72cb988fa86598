#pragma once
// AdmissionServer: the HTTPS server of vc-webhook-manager (spec webhook.md §4.4). It serves the
// enabled admission endpoints through a Router (router.h) over HTTP/1.1 with keep-alive, on the
// HTTP server core (common/server/http_server.h), which holds the transport behaviour below.
//
//   AdmissionServer server({.port = 8443, .cert_file = crt, .key_file = key},
//                          endpoints, cluster_view, admission_options);
//   server.start();   // throws when the certificate cannot be loaded or the port bound
//   ...               // SIGTERM
//   server.stop();    // graceful: finishes reviews in flight, up to graceful_shutdown
//
// GET /healthz on this port answers 200 "ok" without logging or metrics: the webhook's own
// readiness and liveness probe (webhook/app/admission_probe.h) dials it to prove that the TLS
// handshake and the I/O threads work. Volcano answers 404 there (docs/compat.md).
//
// TLS: see tls_context.h. The certificate and key are re-read every cert_poll_interval and a new
// valid pair is used for new connections without a restart (certificate_reloader.h).
//
// Limits (AdmissionServerOptions) are explicit. A body over body_limit gets 413 "request body
// too large" as in Volcano; a header over header_limit gets 431; a malformed request 400; each of
// these closes the connection. A client gets header_timeout for the TLS handshake and then, from
// the first byte of each request, for its header (slowloris); body_timeout for the body; a
// kept-alive connection may idle for idle_timeout between requests. Beyond max_connections, or
// max_connections_per_peer from one address, the longest-idle connection (of that address) makes
// room for the new one; with none idle the new one is closed right after accept. Requests in
// flight hold at most max_inflight_bytes (bodies and decoded trees); over it, 429 at once. A
// review with more than max_review_values JSON values is refused (400) before more is built.
// Each refusal is counted in vc_webhook_refused_total{reason} (refusals.h).
//
// Admit functions run on the server's worker threads (threads, default: one per CPU the process
// may use), so a slow review holds one worker and never the others. A single worker busy-polls
// for busy_poll after its last piece of work before it sleeps (common/server/busy_poll.h).
//
// Thread-safety: every method may be called from any thread, except that stop() must not be
// called from inside an admit function (it would wait for itself). start() is effective once;
// stop() may be called repeatedly (the destructor calls it).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "webhook/admission/endpoint.h"
#include "webhook/server/review_codec.h"

namespace vc::server {
class HttpServer;
}  // namespace vc::server

namespace vc::webhook::server {

class TrustedCas;

struct AdmissionServerOptions {
  std::string listen_address{};  // --listen-address: the host to bind; "" = all interfaces
  int port = 8443;               // --port; 0 = any free port (tests)
  std::string cert_file{};       // --tls-cert-file (the CA may be appended)
  std::string key_file{};        // --tls-private-key-file
  int threads = 0;               // worker threads; 0 = default_worker_threads()
  std::size_t body_limit = 3 * 1024 * 1024;  // Volcano's MaxRequestBody
  std::size_t header_limit = 16 * 1024;
  std::chrono::milliseconds header_timeout{10'000};
  std::chrono::milliseconds body_timeout{30'000};
  std::chrono::milliseconds write_timeout{60'000};
  std::chrono::milliseconds idle_timeout{90'000};
  std::size_t max_connections = 1000;
  // --max-connections-per-peer: connections one client address may hold (0 = no cap). When
  // full, that address's longest-idle connection is closed for the new one, as for
  // max_connections: an API server sharing an address with a hostile client still gets in
  // while the hostile connections are idle.
  std::size_t max_connections_per_peer = 64;
  // --max-inflight-bytes: bytes all requests in flight may hold together, bodies and the trees
  // decoded from them (common/server/http_server.h, Budget); a request that does not fit gets
  // 429 with Retry-After at once. 0 = unbounded. Sized for the chart's 256Mi memory limit.
  std::size_t max_inflight_bytes = 96 * 1024 * 1024;
  // --max-review-values: JSON values a review may hold (review_codec.h).
  std::size_t max_review_values = ReviewLimits{}.max_values;
  std::chrono::milliseconds graceful_shutdown{30'000};  // --graceful-shutdown-time
  // At stop(), how long a kept-alive connection waiting for its next request stays open to answer
  // it (with "Connection: close") before it is closed; capped by graceful_shutdown. The caller
  // (an API server) then closes the connection itself instead of racing our close.
  std::chrono::milliseconds stop_idle_drain{3'000};
  std::chrono::milliseconds cert_poll_interval{1'000};  // 0 = only reload_certificate()
  // --busy-poll: with one worker thread, how long it keeps polling the sockets after its last
  // piece of work before it sleeps (common/server/busy_poll.h); 0 = sleep at once. Ignored with
  // several.
  std::chrono::microseconds busy_poll{100};
  // The CAs the caBundle is confirmed to hold: a reloaded pair signed by another CA is held back
  // until it is (trusted_cas.h, CA rotation). Null: every valid pair is swapped in at once.
  std::shared_ptr<const TrustedCas> trusted_cas{};
};

// The longest busy_poll accepted: longer windows only burn CPU after each burst.
inline constexpr std::chrono::microseconds kMaxBusyPoll{10'000};
// Whether a busy-poll window is within 0..kMaxBusyPoll, and that range as text ("0 and 10ms") for
// error messages. The webhook's flag check and the server's options check both use them.
constexpr bool busy_poll_in_range(std::chrono::nanoseconds window) {
  return window >= std::chrono::nanoseconds::zero() && window <= kMaxBusyPoll;
}
std::string busy_poll_range();

// The smallest max_inflight_bytes with which a review of the largest size (body_limit, with its
// header and its decoded tree at max_review_values) can be served: large requests may hold half
// of the budget. 0 when max_inflight_bytes is 0 (unbounded).
std::size_t min_inflight_bytes(const AdmissionServerOptions& options);

class CertificateReloader;

class AdmissionServer {
 public:
  // Validates the options and the endpoints (std::invalid_argument naming the mistake, see
  // Router); binds only in start().
  AdmissionServer(AdmissionServerOptions options, std::vector<Endpoint> endpoints,
                  std::shared_ptr<const ClusterView> view,
                  std::shared_ptr<const AdmissionOptions> admission_options);
  ~AdmissionServer();
  AdmissionServer(const AdmissionServer&) = delete;
  AdmissionServer& operator=(const AdmissionServer&) = delete;

  // Loads the certificate, binds, listens and starts the workers. Throws std::runtime_error
  // naming the files or the address when the pair cannot be loaded or the address bound, and
  // std::logic_error when called twice.
  void start();

  // Stops accepting, lets requests in flight finish and answer (with "Connection: close") for up
  // to graceful_shutdown, answers the next request of an idle connection the same way for up to
  // stop_idle_drain and closes what stays idle, then closes everything else and returns.
  // Returns false when the grace period ran out with requests still in flight; a worker then
  // still inside an admit function is left to finish on its own. Safe to call more than once.
  bool stop();

  // The bound port (useful with port 0); 0 before start().
  std::uint16_t port() const;
  // Bytes the requests in flight hold now (max_inflight_bytes).
  std::size_t inflight_bytes() const;

  // Re-reads the certificate files now instead of at the next poll; true when a new pair was
  // installed.
  bool reload_certificate();
  // Certificate pairs installed so far: 1 after start(), +1 per successful reload.
  std::uint64_t certificate_generation() const;

 private:
  std::shared_ptr<CertificateReloader> certificates_;
  std::unique_ptr<vc::server::HttpServer> http_;
};

// One worker per CPU in the process's affinity mask (as Go sizes GOMAXPROCS), at least one.
int default_worker_threads();

}  // namespace vc::webhook::server
