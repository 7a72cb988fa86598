#pragma once
// Internal to HttpServer: one accepted connection, plain or TLS, served over HTTP/1.1 with
// keep-alive (http_connection.cpp holds all the Beast code of the server; http_server.cpp
// accepts and stops).
//
// Thread-safety: make_connection() and the Connection methods may be called from any thread; a
// connection does all its work on its socket's executor.

#include <memory>

#include <boost/asio/ip/tcp.hpp>

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
};

// A connection over socket: TLS with tls (the context current when it was accepted, kept for the
// connection's life), plain HTTP when tls is null. Throws boost::system::system_error when
// OpenSSL cannot create the session.
std::shared_ptr<Connection> make_connection(boost::asio::ip::tcp::socket&& socket,
                                            ConnectionHost& host, const SslContextPtr& tls);

}  // namespace vc::server
