#pragma once
// Server: the small plain-HTTP endpoint both binaries run for /metrics, /healthz, /livez and
// /readyz (see router.h for what each path answers), plus any GET handlers added by the binary.
// It is the HTTP server core (http_server.h) serving a Router.
//
//   vc::server::Server server({.address = ":8080"});
//   server.add_ready_check("informers-synced", [&] { return factory.synced(); });
//   server.start();            // throws std::runtime_error when the address cannot be bound
//   ...
//   server.stop();             // graceful: stops accepting, finishes responses in flight
//
// Limits are explicit (ServerOptions): header size, body size, per-request and per-write timeouts,
// connection count and requests per keep-alive connection. A request over a limit gets 431 or
// 413, a malformed one 400, and the connection is closed.
//
// Thread-safety: every method may be called from any thread. start() and stop() are each
// effective once; the destructor stops. Checks and handlers run on the server's I/O threads.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/server/router.h"

namespace vc::server {

struct ServerOptions {
  std::string address = ":8080";  // "host:port"; ":port" = all interfaces; port 0 = any
  int threads = 1;                // I/O threads (1 or 2 is plenty for probes and scrapes)
  std::size_t header_limit = 8 * 1024;
  std::size_t body_limit = 4 * 1024;  // only GET is served; bodies are unexpected
  // Bounds the wait for each request, including the idle time of a kept-alive connection.
  std::chrono::milliseconds read_timeout{10000};
  std::chrono::milliseconds write_timeout{10000};
  std::size_t max_connections = 128;  // then an idle one makes room, or the new one is closed
  int max_requests_per_connection = 1000;
  // How long stop() waits for responses in flight before closing everything.
  std::chrono::milliseconds shutdown_grace{5000};
};

class Server {
 public:
  // Validates the address (std::invalid_argument on a malformed one); binds only in start().
  explicit Server(ServerOptions options = {});
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  void add_health_check(std::string name, Check check);
  void add_ready_check(std::string name, Check check);
  void add_handler(std::string path, Handler handler);

  // Binds, listens and starts the I/O threads. Throws std::runtime_error naming the address when
  // it cannot be resolved or bound.
  void start();
  // Stops accepting, closes idle connections, lets responses in flight finish (up to
  // shutdown_grace), then joins the threads. Safe to call more than once.
  void stop();

  // The bound port (useful with port 0); 0 before start().
  std::uint16_t port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vc::server
