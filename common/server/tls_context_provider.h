#pragma once
// TlsContextProvider: where a TLS server (http_server.h) gets the OpenSSL context of each new
// connection. The server asks for the current context at every accept, so a provider that swaps
// it (the webhook's certificate reloader) rotates the certificate for new connections while
// established ones keep the context they started with.
//
// Thread-safety: the server calls load() from start(), poll() from one I/O thread at a time and
// current() from any I/O thread; an implementation must allow current() concurrently with poll().

#include <memory>

#include <openssl/types.h>

namespace vc::server {

using SslContextPtr = std::shared_ptr<SSL_CTX>;

class TlsContextProvider {
 public:
  virtual ~TlsContextProvider() = default;

  // The first context, before the server binds. Throws std::runtime_error saying why there is
  // none: the server then does not start.
  virtual void load() = 0;
  // Called every HttpServerOptions::tls_poll_interval while the server runs; true when a new
  // context was installed.
  virtual bool poll() = 0;
  // The context for a connection accepted now; non-null after load().
  virtual SslContextPtr current() const = 0;
};

}  // namespace vc::server
