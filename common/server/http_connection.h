#pragma once
// Internal to HttpServer: one accepted connection, plain or TLS, served over HTTP/1.1 with
// keep-alive (http_connection.cpp holds all the Beast code of the server; http_server.cpp
// accepts and stops).
//
// Thread-safety: make_connection() and the Connection methods may be called from any thread; a
// connection does all its work on its socket's executor.

#include <cstdint>
#include <memory>

#include <boost/asio/ip/tcp.hpp>

#include "common/server/byte_budget.h"
#include "common/server/http_server.h"

namespace vc::server {

class Connection;

// What a connection needs from its server. Outlives every connection.
class ConnectionHost {
 public:
  virtual const HttpServerOptions& options() const = 0;
  virtual const HttpService& service() const = 0;
  // True once stop() has begun: answer what is in flight, then close.
  virtual bool is_stopping() const = 0;
  // The bytes requests in flight may hold, shared by every connection.
  virtual ByteBudget& budget() = 0;
  // Called from the connection's destructor.
  virtual void forget(Connection* connection) = 0;

 protected:
  ~ConnectionHost() = default;
};

class Connection {
 public:
  virtual ~Connection() = default;
  // Starts the TLS handshake (if any) and the request loop.
  virtual void run() = 0;
  // stop(): a connection busy with a request answers it (with "Connection: close") and closes; one
  // waiting for its client may send one more request for stop_idle_drain, then it closes.
  virtual void shutdown() = 0;
  // stop() after the grace period: closes the socket whatever the state.
  virtual void force_close() = 0;
  // Since when (steady_clock ticks) the connection has waited for a request, or for its TLS
  // handshake, with nothing of a request read: > 0 while idle, 0 while busy, -1 once evicted.
  virtual std::int64_t idle_since() const = 0;
  // The server is short of slots: closes the connection if it is still idle. False when it was
  // not idle at the call (nothing happens); true when the close is on its way (a request whose
  // first byte arrives meanwhile is still served).
  virtual bool evict() = 0;
};

// A connection over socket: TLS with tls (the context current when it was accepted, kept for the
// connection's life), plain HTTP when tls is null. Throws boost::system::system_error when
// OpenSSL cannot create the session.
std::shared_ptr<Connection> make_connection(boost::asio::ip::tcp::socket&& socket,
                                            ConnectionHost& host, const SslContextPtr& tls);

}  // namespace vc::server
