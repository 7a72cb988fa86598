// All Boost.Beast code of the webhook server lives in this file. The shape follows Beast's
// examples: a Session owns one TLS connection and reads top to bottom as
// run -> handshake -> wait_for_request -> read_header -> read_body -> respond -> on_write ->
// (wait_for_request | close).
#include "webhook/server/connection.h"

#include <optional>
#include <string>
#include <utility>

#include <openssl/ssl.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "common/log/log.h"
#include "webhook/server/metrics.h"

namespace vc::webhook::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;
using Clock = std::chrono::steady_clock;

// After refusing a request whose rest is unread (413, 431, 400) we keep reading and discarding
// what the client still sends for a while, so that closing does not reset the connection before
// the client has read the answer.
constexpr auto kLingerTimeout = std::chrono::seconds(1);
constexpr std::size_t kLingerExtraBytes = 64 * 1024;
// Sending our close_notify should take no time; the peer's is not awaited.
constexpr auto kCloseNotifyTimeout = std::chrono::seconds(1);
constexpr std::size_t kReadChunk = 16 * 1024;

// Asio's context wrapper frees its SSL_CTX when destroyed; give it a reference of its own.
net::ssl::context wrap(const SslContextPtr& ctx) {
  SSL_CTX_up_ref(ctx.get());
  return net::ssl::context(ctx.get());
}

bool is_http_error(error_code ec) {
  return ec.category() == http::make_error_code(http::error::bad_target).category();
}

// The client went away (or stop() cancelled the wait): the normal end of a connection.
bool is_peer_gone(error_code ec) {
  return ec == http::error::end_of_stream || ec == http::error::partial_message ||
         ec == net::error::eof || ec == net::ssl::error::stream_truncated ||
         ec == net::error::connection_reset || ec == net::error::operation_aborted;
}

// One TLS connection. Every member runs on the connection's strand.
class Session : public Connection, public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, ConnectionHost& host, const SslContextPtr& tls)
      : host_(host),
        options_(host.server_options()),
        tls_(wrap(tls)),
        stream_(std::move(socket), tls_) {
    connection_opened();
  }
  ~Session() override {
    connection_closed();
    host_.forget(this);
  }

  void run() override {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->handshake(); });
  }

  // respond() sees host_.is_stopping() and closes after answering.
  void shutdown() override {
    net::post(stream_.get_executor(), [self = shared_from_this()] {
      if (self->waiting_for_peer_) self->lowest().cancel();
    });
  }

  void force_close() override {
    net::post(stream_.get_executor(), [self = shared_from_this()] { self->close_socket(); });
  }

 private:
  beast::tcp_stream& lowest() { return beast::get_lowest_layer(stream_); }

  void handshake() {
    lowest().expires_after(options_.header_timeout);
    waiting_for_peer_ = true;
    stream_.async_handshake(net::ssl::stream_base::server,
                            [self = shared_from_this()](error_code ec) { self->on_handshake(ec); });
  }

  void on_handshake(error_code ec) {
    waiting_for_peer_ = false;
    if (ec) {
      if (ec != net::error::operation_aborted) {
        count_tls_handshake_error();
        VC_LOG_DEBUG("tls handshake failed", kv("err", ec.message()));
      }
      return;  // dropping the last reference closes the socket
    }
    // The first request's header must be complete header_timeout after the handshake.
    first_deadline_ = Clock::now() + options_.header_timeout;
    wait_for_request(true);
  }

  // Waits for the first byte of the next request: idle_timeout on a kept-alive connection.
  void wait_for_request(bool first) {
    if (host_.is_stopping()) return close_gracefully();
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(options_.header_limit));
    parser_->body_limit(options_.body_limit);
    if (buffer_.size() > 0) return read_header(first);  // a pipelined request is already here
    if (first) {
      lowest().expires_at(first_deadline_);
    } else {
      lowest().expires_after(options_.idle_timeout);
    }
    waiting_for_peer_ = true;
    stream_.async_read_some(buffer_.prepare(kReadChunk),
                            [self = shared_from_this(), first](error_code ec, std::size_t n) {
                              self->waiting_for_peer_ = false;
                              if (ec) return self->on_read_error(ec, nullptr);
                              self->buffer_.commit(n);
                              self->read_header(first);
                            });
  }

  void read_header(bool first) {
    if (first) {
      lowest().expires_at(first_deadline_);
    } else {
      lowest().expires_after(options_.header_timeout);
    }
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = shared_from_this()](error_code ec, std::size_t) {
                              if (ec) return self->on_read_error(ec, "header_timeout");
                              self->on_header();
                            });
  }

  void on_header() {
    const auto& req = parser_->get();
    // curl and other clients ask before sending a large body; Go answers for its handlers.
    if (beast::iequals(req[http::field::expect], "100-continue")) {
      continue_ = http::response<http::empty_body>(http::status::continue_, req.version());
      lowest().expires_after(options_.write_timeout);
      http::async_write(stream_, continue_,
                        [self = shared_from_this()](error_code ec, std::size_t) {
                          if (ec) return self->on_read_error(ec, nullptr);
                          self->read_body();
                        });
      return;
    }
    read_body();
  }

  void read_body() {
    lowest().expires_after(options_.body_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](error_code ec, std::size_t) {
                       if (ec) return self->on_read_error(ec, "body_timeout");
                       self->respond();
                     });
  }

  // One place for every read failure. timeout_reason names the phase for the metric; null for
  // waits where a timeout is the normal end (an idle keep-alive connection).
  void on_read_error(error_code ec, const char* timeout_reason) {
    // tcp_stream has already closed the socket: a slow or idle client ran out of time.
    if (ec == beast::error::timeout) {
      if (timeout_reason != nullptr) count_protocol_error(timeout_reason);
      return;
    }
    if (is_peer_gone(ec)) return;
    if (ec == http::error::header_limit) {
      count_protocol_error("header_too_large");
      return refuse({431, std::string(kTextContentType), "request header too large\n"});
    }
    // The header names the path: a known one gets Volcano's 413, any other Go's 404.
    if (ec == http::error::body_limit) {
      return refuse(host_.admission_router().body_too_large(parser_->get().target()));
    }
    if (is_http_error(ec)) {
      count_protocol_error("malformed");
      return refuse(
          {400, std::string(kTextContentType), "malformed HTTP request: " + ec.message() + "\n"});
    }
    VC_LOG_DEBUG("webhook connection read failed", kv("err", ec.message()));
  }

  void respond() {
    const auto& req = parser_->get();
    const HttpRequest request{req.method_string(), req.target(), req[http::field::content_type],
                              req.body()};
    HttpResponse response = host_.admission_router().serve(request);  // runs the admit function
    // Decided after the admit function: stop() may have begun meanwhile.
    const bool keep_alive = req.keep_alive() && !host_.is_stopping();
    const bool head = req.method() == http::verb::head;
    const unsigned version = req.version();
    parser_.reset();  // the request body may be megabytes; do not keep it while idle
    write(std::move(response), version, keep_alive, head, false);
  }

  void write(HttpResponse r, unsigned version, bool keep_alive, bool head, bool linger) {
    res_ = {};
    res_.version(version);
    res_.result(static_cast<unsigned>(r.status));
    res_.set(http::field::content_type, r.content_type);
    res_.set("X-Content-Type-Options", "nosniff");
    res_.body() = std::move(r.body);
    res_.keep_alive(keep_alive);
    res_.prepare_payload();
    if (head) res_.body().clear();  // HEAD: the headers describe the body, which is not sent
    lowest().expires_after(options_.write_timeout);
    http::async_write(stream_, res_,
                      [self = shared_from_this(), keep_alive, linger](error_code ec, std::size_t) {
                        self->on_write(ec, keep_alive, linger);
                      });
  }

  void on_write(error_code ec, bool keep_alive, bool linger) {
    if (ec) {
      if (!is_peer_gone(ec)) VC_LOG_DEBUG("webhook response write failed", kv("err", ec.message()));
      return;  // the stream is broken; dropping the last reference closes it
    }
    if (linger) return drain();
    if (!keep_alive || host_.is_stopping()) return close_gracefully();
    wait_for_request(false);
  }

  // A request the server will not finish reading: answer, then close.
  void refuse(HttpResponse r) {
    const unsigned version = parser_ ? parser_->get().version() : 11;
    buffer_.clear();
    drain_budget_ = options_.body_limit + options_.header_limit + kLingerExtraBytes;
    write(std::move(r), version == 10 ? 10 : 11, false, false, true);
  }

  void drain() {
    lowest().expires_after(kLingerTimeout);
    waiting_for_peer_ = true;
    stream_.async_read_some(buffer_.prepare(kReadChunk),
                            [self = shared_from_this()](error_code ec, std::size_t n) {
                              self->waiting_for_peer_ = false;
                              self->buffer_.clear();
                              // EOF, timeout, reset or cancel: the client is done or gone.
                              if (ec) return;
                              if (n >= self->drain_budget_) return self->close_gracefully();
                              self->drain_budget_ -= n;
                              self->drain();
                            });
  }

  // Sends close_notify and closes without waiting for the peer's, as Go does. Marking the
  // peer's close_notify as received makes SSL_shutdown complete after sending ours.
  void close_gracefully() {
    SSL_set_shutdown(stream_.native_handle(), SSL_RECEIVED_SHUTDOWN);
    lowest().expires_after(kCloseNotifyTimeout);
    stream_.async_shutdown([self = shared_from_this()](error_code) {
      // Whatever happened, the connection ends here; a failed close_notify changes nothing.
      self->close_socket();
    });
  }

  void close_socket() {
    error_code ignored;  // closing a socket the peer already reset is not worth a log line
    lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
    lowest().socket().close(ignored);
  }

  ConnectionHost& host_;
  const AdmissionServerOptions& options_;
  net::ssl::context tls_;  // the context of this connection, also after a certificate reload
  beast::ssl_stream<beast::tcp_stream> stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> res_;
  http::response<http::empty_body> continue_;
  Clock::time_point first_deadline_;
  std::size_t drain_budget_ = 0;
  bool waiting_for_peer_ = false;  // an operation only the client can complete is pending
};

}  // namespace

std::shared_ptr<Connection> make_connection(tcp::socket&& socket, ConnectionHost& host,
                                            const SslContextPtr& tls) {
  return std::make_shared<Session>(std::move(socket), host, tls);
}

}  // namespace vc::webhook::server
