#pragma once
// HttpServer: the one HTTP/1.1 server core of both binaries. It binds, accepts up to a connection
// limit, reads requests with explicit limits and timeouts, keeps connections alive, optionally
// speaks TLS, and stops gracefully; what a request gets is decided by an HttpService. The
// webhook's admission server (webhook/server/admission_server.h) and the plain metrics/health
// server (server.h) are each an HttpService plus options.
//
//   HttpServer http(options, std::make_shared<MyService>());
//   http.start();   // throws std::runtime_error when the address cannot be bound (or TLS loaded)
//   ...
//   http.stop();    // graceful: answers what is in flight, up to graceful_shutdown
//
// Requests. A request is read whole (header, then body) before the service sees it. A header over
// header_limit is refused with the service's answer (431), a body over body_limit likewise (413),
// a request Beast cannot parse likewise (400), one over the budget (below) likewise (429); each
// refusal closes the connection after the answer, reading and discarding what the client still
// sends for a moment so that the close does not reset the connection before the client has read
// the answer. "Expect: 100-continue" gets its
// interim response. Any method reaches the service; the body of a HEAD answer is left out.
//
// Budget. Every request in flight holds bytes of one ByteBudget shared by all connections
// (byte_budget.h; inflight_budget, 0 = unbounded): its header and body as they are buffered (with
// room for the read in progress), its whole declared Content-Length as soon as the header is read
// (the body buffer is sized for it then), and while the service serves it what the service says
// it will build (HttpService::working_set, e.g. a parsed tree). A connection reserves before it
// buffers; when the budget is short the request is refused at once with the service's answer
// (Refusal::OverBudget, a 429), so the total never grows past it. A request over large_request
// bytes counts as large; large requests together may hold at most half of the budget, which keeps
// the other half for small ones (an API server's reviews) while big bodies are uploaded slowly.
// The bytes come back when the answer is written. Not counted: a connection's fixed state (its
// TLS session and a read buffer of 16 KiB), bounded by max_connections instead.
//
// Connections. At most max_connections at once, and at most max_connections_per_peer from one
// peer address (0 = no cap). When either is full, the connection of that scope that has waited
// longest for its next request (or its first, or its TLS handshake) is closed to make room for
// the new one; only when none is idle is the new connection closed right after accept. A client
// that holds many idle connections therefore cannot keep an active client out. A connection
// chosen while idle that becomes busy in the same instant is left to finish its request, so the
// table may exceed its limit by such connections until they end.
//
// Timeouts. A TLS client gets header_timeout for its handshake; the first request's header must
// then be complete within header_timeout (after accept, without TLS). Later requests may idle for
// idle_timeout before their first byte, then have header_timeout for their header (slowloris) and
// body_timeout for their body. With a request_timeout, no request (its idle wait included) may
// take longer than that. Each write must finish within write_timeout. A connection over its time
// is closed.
//
// Keep-alive: as the client asks, until max_requests_per_connection answers, and never once stop()
// has begun: an answer then carries "Connection: close".
//
// Stop: the listener closes at once; requests in flight are answered; a connection waiting for
// its next request may still send one for stop_idle_drain (it is answered with a close, which
// spares a client the race between its write and our close), then it is closed; after
// graceful_shutdown everything still open is closed. A worker still inside the service then is
// left to finish on its own, holding the server's state (and the service) alive until it does.
//
// Threads: `threads` I/O threads run every connection; a connection's handlers never run
// concurrently. With one thread, it busy-polls for busy_poll after its last piece of work before
// it sleeps (busy_poll.h).
//
// Thread-safety: every method may be called from any thread, except that stop() must not be
// called from inside the service (it would wait for itself). start() is effective once; stop()
// may be called repeatedly (the destructor calls it). The service runs on the I/O threads.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "common/server/http_message.h"
#include "common/server/tls_context_provider.h"

namespace vc::server {

struct HttpServerOptions {
  std::string name = "http";  // starts its log lines: "http server listening", ...
  std::string host{};         // "" = all interfaces (IPv6 dual-stack where available, else IPv4)
  std::uint16_t port = 0;     // 0 = any free port (tests)
  int threads = 1;            // I/O threads, >= 1
  std::chrono::microseconds busy_poll{0};  // only with one thread; 0 = sleep at once
  std::size_t header_limit = 16 * 1024;
  std::size_t body_limit = 64 * 1024;
  std::chrono::milliseconds header_timeout{10'000};
  std::chrono::milliseconds body_timeout{10'000};
  std::chrono::milliseconds idle_timeout{10'000};
  std::chrono::milliseconds request_timeout{0};  // 0 = no bound on a whole request
  std::chrono::milliseconds write_timeout{10'000};
  std::size_t max_connections = 128;  // then an idle one makes room, or the new one is closed
  std::size_t max_connections_per_peer = 0;  // per peer address; 0 = no cap
  std::size_t inflight_budget = 0;           // bytes of all requests in flight; 0 = unbounded
  std::size_t large_request = 256 * 1024;    // a request over this is large (see Budget)
  int max_requests_per_connection = std::numeric_limits<int>::max();
  std::chrono::milliseconds graceful_shutdown{5'000};
  std::chrono::milliseconds stop_idle_drain{0};  // capped by graceful_shutdown
  // Null: plain HTTP. Otherwise TLS with the provider's current context at each accept.
  std::shared_ptr<TlsContextProvider> tls{};
  std::chrono::milliseconds tls_poll_interval{0};  // 0 = never poll the provider
};

// Why a request was refused before it was read whole.
// OverBudget: reserving its bytes would have taken the requests in flight over inflight_budget.
enum class Refusal { HeaderTooLarge, BodyTooLarge, Malformed, OverBudget };

// What the server serves. The core calls it on its I/O threads, for many connections at once.
class HttpService {
 public:
  virtual ~HttpService() = default;

  // The answer to a complete request. Must not throw.
  virtual HttpResponse serve(const HttpRequest& request) const = 0;
  // The answer to a refused request: target is what its header named ("" when unknown), detail
  // the parser's reason for Malformed or the budget's state for OverBudget. Must not throw.
  virtual HttpResponse refuse(Refusal why, std::string_view target,
                              std::string_view detail) const = 0;

  // Bytes the service will hold while serving this request beyond the request itself (a parsed
  // tree), reserved from the budget before serve(); an upper bound, cheap to compute. Must not
  // throw.
  virtual std::size_t working_set(const HttpRequest& /*request*/) const { return 0; }

  // Connection events, for metrics and logs; each does nothing unless overridden.
  virtual void connection_opened() const {}
  virtual void connection_closed() const {}
  // A connection accepted beyond max_connections with none idle to make room, closed at once.
  virtual void connection_rejected(std::size_t /*limit*/) const {}
  // Likewise beyond max_connections_per_peer from peer, none of whose connections was idle.
  virtual void peer_connection_rejected(std::string_view /*peer*/, std::size_t /*limit*/) const {}
  // An idle connection closed to make room for a new one.
  virtual void idle_connection_evicted() const {}
  virtual void tls_handshake_failed() const {}
  // A request begun but not complete in time; phase is "header_timeout" or "body_timeout".
  virtual void request_timed_out(std::string_view /*phase*/) const {}
};

class HttpServer {
 public:
  // std::invalid_argument when threads < 1 or service is null. Binds only in start().
  HttpServer(HttpServerOptions options, std::shared_ptr<const HttpService> service);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Loads the TLS context (when there is a provider), binds, listens and starts the threads.
  // Throws what the provider's load() throws, std::runtime_error naming the address when it
  // cannot be resolved or bound, and std::logic_error when called twice or after stop().
  void start();

  // Stops as the header comment says. Returns false when the grace period ran out with
  // connections still busy or a worker is left inside the service. Safe to call more than once.
  bool stop();

  // The bound port (useful with port 0); 0 before start().
  std::uint16_t port() const;

  // Bytes the requests in flight hold from the budget now (see Budget).
  std::size_t inflight_bytes() const;

 private:
  struct Core;
  std::shared_ptr<Core> core_;  // shared with the I/O threads (see Stop above)
};

}  // namespace vc::server
