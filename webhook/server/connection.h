#pragma once
// Internal to the admission server: one accepted TLS connection, served over HTTP/1.1 with
// keep-alive (connection.cpp holds all its Beast code; admission_server.cpp accepts and stops).
//
// Thread-safety: make_connection() and the Connection methods may be called from any thread; a
// connection does all its work on its socket's strand.

#include <atomic>
#include <memory>

#include <boost/asio/ip/tcp.hpp>

#include "webhook/server/admission_server.h"
#include "webhook/server/router.h"
#include "webhook/server/tls_context.h"

namespace vc::webhook::server {

class Connection;

// What a connection needs from its server. Outlives every connection.
class ConnectionHost {
 public:
  virtual const AdmissionServerOptions& server_options() const = 0;
  virtual const Router& admission_router() const = 0;
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
  // Starts the TLS handshake and the request loop.
  virtual void run() = 0;
  // stop(): a connection waiting for its client closes now; one busy with a request answers it
  // (with "Connection: close") and then closes.
  virtual void shutdown() = 0;
  // stop() after the grace period: closes the socket whatever the state.
  virtual void force_close() = 0;
};

// A connection over socket using tls (the context current when it was accepted, kept for the
// connection's life). Throws boost::system::system_error when OpenSSL cannot create the session.
std::shared_ptr<Connection> make_connection(boost::asio::ip::tcp::socket&& socket,
                                            ConnectionHost& host, const SslContextPtr& tls);

}  // namespace vc::webhook::server
