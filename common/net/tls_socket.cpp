// The non-template half of TlsSocket: the socket BIO the TLS session reads and writes through,
// and one non-blocking attempt of each operation.

#include "common/net/tls_socket.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>

namespace vc::net {
namespace tls_io {
namespace {

using boost::system::error_code;

// OpenSSL's own socket BIO writes with write(2), which raises SIGPIPE when the peer has reset
// the connection; this one sends with MSG_NOSIGNAL (as Asio does), so a reset is an error code
// and never a signal. The descriptor is never closed here: the tcp::socket owns it.
int fd_of(BIO* bio) {
  return static_cast<int>(reinterpret_cast<std::intptr_t>(BIO_get_data(bio)));
}

int bio_write(BIO* bio, const char* data, int size) {
  BIO_clear_retry_flags(bio);
  const ssize_t n =
      ::send(fd_of(bio), data, static_cast<std::size_t>(size), MSG_NOSIGNAL | MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
    BIO_set_retry_write(bio);
  }
  return static_cast<int>(n);
}

int bio_read(BIO* bio, char* data, int size) {
  BIO_clear_retry_flags(bio);
  const ssize_t n = ::recv(fd_of(bio), data, static_cast<std::size_t>(size), MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
    BIO_set_retry_read(bio);
  }
  return static_cast<int>(n);
}

// OpenSSL asks a BIO to flush after each record it writes; nothing is buffered here.
long bio_ctrl(BIO*, int cmd, long, void*) {  // NOLINT(google-runtime-int): OpenSSL's signature
  return cmd == BIO_CTRL_FLUSH ? 1 : 0;
}

BIO_METHOD* socket_method() {
  static BIO_METHOD* method = [] {
    BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK | BIO_TYPE_DESCRIPTOR,
                                 "vc-cpp socket");
    if (m == nullptr) return m;
    BIO_meth_set_write(m, bio_write);
    BIO_meth_set_read(m, bio_read);
    BIO_meth_set_ctrl(m, bio_ctrl);
    return m;
  }();
  return method;
}

// What an SSL_* call that returned `ret` means; bytes when it succeeded.
Step classify(SSL* ssl, int ret, std::size_t bytes, int saved_errno) {
  if (ret == 1) return {Want::nothing, bytes, {}};
  switch (SSL_get_error(ssl, ret)) {
    case SSL_ERROR_WANT_READ:
      return {Want::read, 0, {}};
    case SSL_ERROR_WANT_WRITE:
      return {Want::write, 0, {}};
    case SSL_ERROR_ZERO_RETURN:  // the peer's close_notify
      return {Want::nothing, 0, boost::asio::error::eof};
    case SSL_ERROR_SYSCALL:
      if (const unsigned long e = ERR_get_error(); e != 0) {  // NOLINT(google-runtime-int)
        return {Want::nothing, 0,
                error_code(static_cast<int>(e), boost::asio::error::get_ssl_category())};
      }
      if (saved_errno != 0)
        return {Want::nothing, 0, error_code(saved_errno, boost::system::system_category())};
      return {Want::nothing, 0, boost::asio::ssl::error::stream_truncated};
    default: {
      const unsigned long e = ERR_get_error();  // NOLINT(google-runtime-int)
      if (ERR_GET_REASON(e) == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
        return {Want::nothing, 0, boost::asio::ssl::error::stream_truncated};
      }
      return {Want::nothing, 0,
              error_code(static_cast<int>(e), boost::asio::error::get_ssl_category())};
    }
  }
}

Step plain(ssize_t n, bool reading) {
  if (n > 0) return {Want::nothing, static_cast<std::size_t>(n), {}};
  if (n == 0) return {Want::nothing, 0, boost::asio::error::eof};  // only reads return 0 here
  if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
    return {reading ? Want::read : Want::write, 0, {}};
  }
  return {Want::nothing, 0, error_code(errno, boost::system::system_category())};
}

int clamp(std::size_t size) {
  return static_cast<int>(std::min<std::size_t>(size, INT_MAX));
}

}  // namespace

Step read_some(SSL* ssl, int fd, void* data, std::size_t size) {
  if (size == 0) return {};
  if (ssl == nullptr) return plain(::recv(fd, data, size, MSG_DONTWAIT), true);
  ERR_clear_error();
  std::size_t n = 0;
  errno = 0;
  const int ret = SSL_read_ex(ssl, data, size, &n);
  return classify(ssl, ret, n, errno);
}

Step write_some(SSL* ssl, int fd, const void* data, std::size_t size) {
  if (size == 0) return {};
  if (ssl == nullptr) return plain(::send(fd, data, size, MSG_NOSIGNAL | MSG_DONTWAIT), false);
  ERR_clear_error();
  std::size_t n = 0;
  errno = 0;
  const int ret = SSL_write_ex(ssl, data, static_cast<std::size_t>(clamp(size)), &n);
  return classify(ssl, ret, n, errno);
}

Step handshake(SSL* ssl) {
  ERR_clear_error();
  errno = 0;
  const int ret = SSL_do_handshake(ssl);
  return classify(ssl, ret, 0, errno);
}

Step shutdown(SSL* ssl) {
  ERR_clear_error();
  errno = 0;
  const int ret = SSL_shutdown(ssl);
  if (ret >= 0) return {};  // 1: both close_notifies; 0: ours is sent
  return classify(ssl, ret, 0, errno);
}

}  // namespace tls_io

TlsSocket::~TlsSocket() {
  if (ssl_ != nullptr) SSL_free(ssl_);
}

SSL* TlsSocket::start_tls(SSL_CTX* ctx, Role role) {
  BIO_METHOD* method = tls_io::socket_method();
  if (method == nullptr) return nullptr;
  SSL* ssl = SSL_new(ctx);
  if (ssl == nullptr) return nullptr;
  BIO* bio = BIO_new(method);
  if (bio == nullptr) {
    SSL_free(ssl);
    return nullptr;
  }
  BIO_set_data(bio, reinterpret_cast<void*>(static_cast<std::intptr_t>(socket_.native_handle())));
  BIO_set_init(bio, 1);
  SSL_set_bio(ssl, bio, bio);  // the session owns the BIO (one reference for both directions)
  if (role == Role::client) {
    SSL_set_connect_state(ssl);
  } else {
    SSL_set_accept_state(ssl);
  }
  // Partial writes: a write completes with the records sent so far, as a socket's write_some.
  // Released buffers: OpenSSL frees the record buffers (about 33 KiB) while nothing is buffered,
  // as in a watch waiting for its next event or a connection idle in a pool.
  SSL_set_mode(ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER |
                        SSL_MODE_RELEASE_BUFFERS);
  // Read-ahead: a record is read with whatever follows it that has arrived, in one recv, instead
  // of a recv for its 5-byte header and another for its body. A Go client (the API server
  // calling a webhook, or sending watch events) writes a message as several records, so this
  // halves the receive syscalls or better. What is read ahead stays in the session: every read
  // tries SSL_read before it waits for the socket, and SSL_has_pending() tells a caller that
  // must know whether input is waiting.
  SSL_set_read_ahead(ssl, 1);
  if (ssl_ != nullptr) SSL_free(ssl_);
  ssl_ = ssl;
  return ssl;
}

}  // namespace vc::net
