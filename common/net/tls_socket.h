#pragma once
// TlsSocket: a TCP socket that, once start_tls() is called, carries a TLS session OpenSSL runs
// on the socket's descriptor itself. It is the stream Beast's HTTP operations use on both sides:
// the API client (common/kube/transport.cpp) and the HTTP server (common/server/
// http_connection.cpp), an Asio AsyncReadStream and AsyncWriteStream, for TLS and plain alike.
//
// Why not asio::ssl::stream: it keeps two 17 KiB record buffers per connection, and its engine
// a 2 x 17 KiB BIO pair besides, all resident in every open connection (the controller holds a
// watch for each of its ~17 informers, and one more per request in flight). Here OpenSSL's own
// record buffers are the only ones, SSL_MODE_RELEASE_BUFFERS frees them while a connection
// waits, and each byte is copied once less. One stream type for TLS and plain also halves the
// Beast code instantiated.
//
// Not thread-safe: one read and one write at a time at most, on the socket's executor.
// Operations never complete inside the call that starts them. Cancelling or closing the socket
// aborts the operation waiting on it (operation_aborted).

#include <openssl/ssl.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>

#include <boost/asio/buffer.hpp>
#include <boost/asio/compose.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/system/error_code.hpp>

namespace vc::net {

namespace tls_io {

enum class Want { nothing, read, write };

// The outcome of one non-blocking attempt: done (bytes and error) or waiting for the socket.
struct Step {
  Want want = Want::nothing;
  std::size_t bytes = 0;
  boost::system::error_code error;
};

// One non-blocking attempt each, on the session when there is one, else on the bare socket.
Step read_some(SSL* ssl, int fd, void* data, std::size_t size);
Step write_some(SSL* ssl, int fd, const void* data, std::size_t size);
Step handshake(SSL* ssl);
// Sends our close_notify; done once it is sent (the peer's is not awaited).
Step shutdown(SSL* ssl);

// Retries an attempt until it is done, waiting for the socket in between. Attempt: Step().
template <class Attempt>
class Op {
 public:
  Op(boost::asio::ip::tcp::socket& socket, Attempt attempt)
      : socket_(socket), attempt_(std::move(attempt)) {}

  template <class Self>
  void operator()(Self& self, boost::system::error_code wait_error = {}) {
    if (posted_) return self.complete(step_.error, step_.bytes);
    if (wait_error) return self.complete(wait_error, std::size_t{0});  // closed, cancelled
    step_ = attempt_();
    if (step_.want != Want::nothing) {
      waited_ = true;
      socket_.async_wait(step_.want == Want::read ? boost::asio::socket_base::wait_read
                                                  : boost::asio::socket_base::wait_write,
                         std::move(self));
      return;
    }
    if (waited_) return self.complete(step_.error, step_.bytes);
    // Done at the first attempt, inside the initiating call: complete from the executor instead,
    // so that a loop of reads that find data waiting never recurses.
    posted_ = true;
    auto executor = socket_.get_executor();
    boost::asio::post(executor, std::move(self));
  }

 private:
  boost::asio::ip::tcp::socket& socket_;
  Attempt attempt_;
  Step step_;
  bool waited_ = false;
  bool posted_ = false;
};

// Up to this much of a write's buffer sequence is gathered into one TLS record: Beast hands over
// an HTTP head as many small buffers, each of which would otherwise be a record and a syscall.
constexpr std::size_t kGatherLimit = 16 * 1024;

}  // namespace tls_io

class TlsSocket {
 public:
  using executor_type = boost::asio::ip::tcp::socket::executor_type;

  enum class Role { client, server };

  explicit TlsSocket(boost::asio::io_context& ioc) : socket_(ioc) {}
  explicit TlsSocket(boost::asio::ip::tcp::socket&& socket) : socket_(std::move(socket)) {}
  ~TlsSocket();
  TlsSocket(const TlsSocket&) = delete;
  TlsSocket& operator=(const TlsSocket&) = delete;

  executor_type get_executor() { return socket_.get_executor(); }
  boost::asio::ip::tcp::socket& socket() { return socket_; }
  // The TLS session, null before start_tls().
  SSL* native_handle() const { return ssl_; }

  // Begins a TLS session over the connected socket and returns it, for the caller to set the
  // server name and the host check before async_handshake. Returns null (with OpenSSL's error
  // queue holding why) when the session cannot be made.
  SSL* start_tls(SSL_CTX* ctx, Role role = Role::client);

  // Handler: void(error_code, std::size_t) for all four.
  template <class Token>
  auto async_handshake(Token&& token) {
    SSL* ssl = ssl_;
    return run([ssl] { return tls_io::handshake(ssl); }, std::forward<Token>(token));
  }

  template <class Token>
  auto async_shutdown(Token&& token) {
    SSL* ssl = ssl_;
    return run([ssl] { return tls_io::shutdown(ssl); }, std::forward<Token>(token));
  }

  template <class MutableBuffers, class Token>
  auto async_read_some(const MutableBuffers& buffers, Token&& token) {
    boost::asio::mutable_buffer first;
    for (auto it = boost::asio::buffer_sequence_begin(buffers);
         it != boost::asio::buffer_sequence_end(buffers); ++it) {
      if (boost::asio::mutable_buffer b(*it); b.size() > 0) {
        first = b;
        break;
      }
    }
    SSL* ssl = ssl_;
    const int fd = socket_.native_handle();
    return run([ssl, fd, first] { return tls_io::read_some(ssl, fd, first.data(), first.size()); },
               std::forward<Token>(token));
  }

  template <class ConstBuffers, class Token>
  auto async_write_some(const ConstBuffers& buffers, Token&& token) {
    // The first non-empty buffer as it is when it is large enough, else a copy of the buffers'
    // first kGatherLimit bytes. The copy lives in the operation: a TLS write that must be retried
    // is retried with the same bytes (SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER lets them move).
    boost::asio::const_buffer first;
    std::size_t total = 0;
    for (auto it = boost::asio::buffer_sequence_begin(buffers);
         it != boost::asio::buffer_sequence_end(buffers); ++it) {
      boost::asio::const_buffer b(*it);
      if (first.size() == 0) first = b;
      total += b.size();
      if (total >= tls_io::kGatherLimit) break;
    }
    std::string gathered;
    if (first.size() < std::min(total, tls_io::kGatherLimit)) {
      gathered.resize(std::min(total, tls_io::kGatherLimit));
      boost::asio::buffer_copy(boost::asio::buffer(gathered), buffers);
    }
    SSL* ssl = ssl_;
    const int fd = socket_.native_handle();
    return run(
        [ssl, fd, first, gathered = std::move(gathered)] {
          return gathered.empty() ? tls_io::write_some(ssl, fd, first.data(), first.size())
                                  : tls_io::write_some(ssl, fd, gathered.data(), gathered.size());
        },
        std::forward<Token>(token));
  }

 private:
  template <class Attempt, class Token>
  auto run(Attempt attempt, Token&& token) {
    return boost::asio::async_compose<Token, void(boost::system::error_code, std::size_t)>(
        tls_io::Op<Attempt>(socket_, std::move(attempt)), token, socket_);
  }

  boost::asio::ip::tcp::socket socket_;
  SSL* ssl_ = nullptr;
};

}  // namespace vc::net
