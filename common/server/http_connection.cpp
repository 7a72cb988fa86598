// All Boost.Beast code of the HTTP server lives in this file. The shape follows Beast's examples:
// a Session owns one connection and reads top to bottom as
// run -> (handshake) -> wait_for_request -> parse_buffered (<-> read_more) -> respond -> on_write
// -> (wait_for_request | close). One stream type (common/net/tls_socket.h) serves plain TCP and
// TLS; the few steps that differ (handshake, half-close, close) test tls_.
// Every operation has a deadline: arm() before it starts a timer that closes the socket when it
// passes, and settle() in its handler turns the abort that causes into beast::error::timeout.
// Every byte a request holds is reserved from the server's budget first (reserve_up_to).
#include "common/server/http_connection.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http.hpp>
#include <boost/system/system_error.hpp>

#include "common/log/log.h"
#include "common/net/tls_socket.h"
#include "common/server/response_bytes.h"

namespace vc::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
namespace net_tls = vc::net;
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

bool is_http_error(error_code ec) {
  return ec.category() == http::make_error_code(http::error::bad_target).category();
}

// The client went away (or stop() cancelled the wait): the normal end of a connection.
bool is_peer_gone(error_code ec) {
  return ec == http::error::end_of_stream || ec == http::error::partial_message ||
         ec == net::error::eof || ec == net::ssl::error::stream_truncated ||
         ec == net::error::connection_reset || ec == net::error::operation_aborted;
}

// One connection. Every member runs on the connection's executor: a strand, or with one I/O
// thread the io_context's own (http_server.cpp, do_accept).
class Session : public Connection, public std::enable_shared_from_this<Session> {
 public:
  // Throws boost::system::system_error when OpenSSL cannot make the TLS session.
  Session(tcp::socket&& socket, ConnectionHost& host, const SslContextPtr& tls)
      : host_(host),
        service_(host.service()),
        options_(host.options()),
        stream_(std::move(socket)),
        deadline_(stream_.get_executor()),
        tls_(tls != nullptr),
        budget_(host.budget()) {
    // The session takes a reference on the context: a certificate reload later does not touch
    // this connection.
    if (tls_ && stream_.start_tls(tls.get(), net_tls::TlsSocket::Role::server) == nullptr) {
      throw boost::system::system_error(
          error_code(static_cast<int>(ERR_get_error()), net::error::get_ssl_category()), "SSL_new");
    }
    service_.connection_opened();
  }
  ~Session() override {
    release_budget();
    service_.connection_closed();
    host_.forget(this);
  }

  void run() override {
    net::dispatch(stream_.get_executor(), [self = this->shared_from_this()] { self->start(); });
  }

  // A request in flight is answered with "Connection: close" (respond() sees is_stopping()). A
  // connection waiting for its next request stays open for stop_idle_drain: a client that sends
  // one then gets its answer and the close in it, instead of racing our close with its write (a
  // POST that loses that race fails, and an API server does not retry it). What is still idle
  // when the window ends is closed.
  void shutdown() override {
    net::post(stream_.get_executor(), [self = this->shared_from_this()] {
      if (!self->waiting_for_peer_) return;
      self->stop_timer_.emplace(self->stream_.get_executor());
      self->stop_timer_->expires_after(
          std::min(self->options_.stop_idle_drain, self->options_.graceful_shutdown));
      // Weak: a connection that ends on its own meanwhile must not wait for the timer.
      self->stop_timer_->async_wait([weak = self->weak_from_this()](error_code ec) {
        auto s = weak.lock();
        if (ec || !s || !s->waiting_for_peer_) return;
        error_code ignored;
        s->stream_.socket().cancel(ignored);
      });
    });
  }

  void force_close() override {
    net::post(stream_.get_executor(), [self = this->shared_from_this()] { self->close_socket(); });
  }

  std::int64_t idle_since() const override { return idle_since_.load(std::memory_order_relaxed); }

  bool evict() override {
    std::int64_t since = idle_since_.load(std::memory_order_relaxed);
    if (since <= 0 || !idle_since_.compare_exchange_strong(since, -1)) return false;
    net::post(stream_.get_executor(), [self = this->shared_from_this()] {
      // Still waiting with nothing of a request read (a request that began meanwhile is served):
      // closing aborts the pending handshake or read, which ends the connection quietly.
      if (self->phase_ != Phase::Idle || !self->waiting_for_peer_) return;
      self->service_.idle_connection_evicted();
      self->close_socket();
    });
    return true;
  }

 private:
  // Starts the deadline of the operation about to begin (replacing the previous one's).
  void arm(Clock::time_point deadline) {
    timed_out_ = false;
    const auto round = ++round_;
    deadline_.expires_at(deadline);
    deadline_.async_wait([weak = weak_from_this(), round](error_code ec) {
      auto self = weak.lock();
      // A deadline already replaced by the next operation's, or met, changes nothing.
      if (ec || !self || round != self->round_) return;
      self->timed_out_ = true;
      self->close_socket();
    });
  }
  void arm_after(Clock::duration d) { arm(Clock::now() + d); }

  // The outcome of the operation just completed: its own, or the timeout that aborted it.
  error_code settle(error_code ec) {
    ++round_;  // its deadline no longer applies
    if (timed_out_) return beast::error::timeout;
    return ec;
  }

  void start() {
    mark_idle();
    if (tls_) {
      arm_after(options_.header_timeout);
      waiting_for_peer_ = true;
      stream_.async_handshake([self = this->shared_from_this()](error_code ec, std::size_t) {
        self->on_handshake(self->settle(ec));
      });
    } else {
      on_handshake({});
    }
  }

  void on_handshake(error_code ec) {
    waiting_for_peer_ = false;
    if (ec) {
      if (ec != net::error::operation_aborted) {
        service_.tls_handshake_failed();
        VC_LOG_DEBUG("tls handshake failed", kv("err", ec.message()));
      }
      return;  // dropping the last reference closes the socket
    }
    // The first request's header must be complete header_timeout after the handshake.
    first_deadline_ = Clock::now() + options_.header_timeout;
    wait_for_request(true);
  }

  // Starts the next request: parses what is already buffered (a pipelined request), else waits
  // for its first byte, for idle_timeout on a kept-alive connection.
  // During stop() the first request of a connection is still read and answered (with a close):
  // its client has just connected and is about to send it.
  void wait_for_request(bool first) {
    if (host_.is_stopping() && !first) return close_gracefully();
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(options_.header_limit));
    parser_->body_limit(options_.body_limit);
    // put() stops after the header, before the body's buffer is sized for its Content-Length, so
    // that those bytes can be reserved first; then it goes on with what the same read brought.
    parser_->eager(false);
    phase_ = Phase::Idle;
    consumed_ = 0;
    header_bytes_ = 0;
    large_ = false;
    if (!first) mark_idle();
    first_request_ = first;
    request_start_ = Clock::now();
    parse_buffered();
  }

  // Feeds the buffered bytes to the parser, and reads more until the request is complete. The
  // parse runs here, in the handler of the read that brought the bytes: Beast's async_read would
  // post every step (header, body) through the executor once more, about 3 % of a review's CPU.
  void parse_buffered() {
    while (buffer_.size() > 0 && !parser_->is_done()) {
      if (phase_ == Phase::Idle) {
        // A request's header must be complete header_timeout from its first byte (slowloris);
        // the first request's, header_timeout after the handshake.
        phase_ = Phase::Header;
        phase_deadline_ = first_request_ ? first_deadline_ : Clock::now() + options_.header_timeout;
        idle_since_.store(0, std::memory_order_relaxed);
        // What the idle read brought is buffered already; the header may grow to its limit.
        if (!reserve_up_to(buffer_.size())) return refuse_over_budget();
      }
      error_code ec;
      const std::size_t used = parser_->put(buffer_.data(), ec);
      buffer_.consume(used);
      consumed_ += used;
      if (ec && ec != http::error::need_more) return on_read_error(ec, nullptr);
      if (phase_ == Phase::Header && parser_->is_header_done()) {
        phase_ = Phase::Body;
        phase_deadline_ = Clock::now() + options_.body_timeout;
        // The next put() sizes the body's buffer for the declared length: reserve it now, and
        // refuse at once (before the client sends it) what the budget cannot hold.
        header_bytes_ = consumed_;
        large_ = budget_.is_large(request_bytes());
        if (!reserve_up_to(request_bytes() + buffer_.size())) return refuse_over_budget();
        parser_->eager(true);
        if (wants_continue()) return send_continue();
      }
      if (ec) break;  // need_more
    }
    if (parser_->is_done()) return respond();
    read_more();
  }

  // curl and other clients ask before sending a large body; Go answers for its handlers.
  bool wants_continue() const {
    return beast::iequals(parser_->get()[http::field::expect], "100-continue");
  }

  void send_continue() {
    continue_ = http::response<http::empty_body>(http::status::continue_, parser_->get().version());
    arm_after(options_.write_timeout);
    http::async_write(stream_, continue_,
                      [self = this->shared_from_this()](error_code ec, std::size_t) {
                        ec = self->settle(ec);
                        if (ec) return self->on_read_error(ec, nullptr);
                        self->parse_buffered();
                      });
  }

  void read_more() {
    // Null while waiting for a request: a timeout then is the normal end of an idle connection.
    const char* timeout_reason = nullptr;
    Clock::time_point deadline;
    switch (phase_) {
      case Phase::Idle:
        deadline = first_request_ ? first_deadline_ : Clock::now() + options_.idle_timeout;
        break;
      case Phase::Header:
        deadline = phase_deadline_;
        timeout_reason = "header_timeout";
        break;
      case Phase::Body:
        deadline = phase_deadline_;
        timeout_reason = "body_timeout";
        break;
    }
    if (options_.request_timeout.count() > 0) {
      deadline = std::min(deadline, request_start_ + options_.request_timeout);
    }
    if (phase_ != Phase::Idle) {
      // A body without Content-Length (chunked) grows read by read.
      large_ = large_ || budget_.is_large(request_bytes() + buffer_.size());
      if (!reserve_up_to(request_bytes() + buffer_.size() + kReadChunk)) {
        return refuse_over_budget();
      }
    }
    arm(deadline);
    // Only a wait for the next request is cut short by stop(); a request begun is read.
    waiting_for_peer_ = phase_ == Phase::Idle;
    stream_.async_read_some(
        buffer_.prepare(kReadChunk),
        [self = this->shared_from_this(), timeout_reason](error_code ec, std::size_t n) {
          self->waiting_for_peer_ = false;
          ec = self->settle(ec);
          if (ec) return self->on_read_error(ec, timeout_reason);
          self->buffer_.commit(n);
          self->parse_buffered();
        });
  }

  // One place for every read failure. timeout_reason names the phase for the service; null for
  // waits where a timeout is the normal end (an idle keep-alive connection).
  void on_read_error(error_code ec, const char* timeout_reason) {
    // The deadline has already closed the socket: a slow or idle client ran out of time.
    if (ec == beast::error::timeout) {
      if (timeout_reason != nullptr) service_.request_timed_out(timeout_reason);
      return;
    }
    if (is_peer_gone(ec)) return;
    if (ec == http::error::header_limit) {
      return refuse(service_.refuse(Refusal::HeaderTooLarge, {}, {}));
    }
    if (ec == http::error::body_limit) {
      return refuse(service_.refuse(Refusal::BodyTooLarge, parser_->get().target(), {}));
    }
    if (is_http_error(ec)) {
      return refuse(service_.refuse(Refusal::Malformed, {}, ec.message()));
    }
    VC_LOG_DEBUG(options_.name + " connection read failed", kv("err", ec.message()));
  }

  void respond() {
    const auto& req = parser_->get();
    const HttpRequest request{req.method_string(), req.target(), req[http::field::content_type],
                              req.body()};
    // The request's own bytes, with what serving it will build, must fit before it is served.
    if (!reserve_up_to(consumed_ + service_.working_set(request))) return refuse_over_budget();
    HttpResponse response = service_.serve(request);
    ++served_;
    // Decided after the service ran: stop() may have begun meanwhile.
    const bool keep_alive =
        req.keep_alive() && !host_.is_stopping() && served_ < options_.max_requests_per_connection;
    const bool head = req.method() == http::verb::head;
    const unsigned version = req.version();
    auto after = std::move(response.after);
    write(response, version, keep_alive, head, false);
    // Starting the write sent the answer (Asio tries the socket at once) or queued it: what the
    // client does not wait for comes now, its log line and the freeing of the request.
    after.reset();
    parser_.reset();  // the request body may be megabytes; do not keep it while idle
    release_budget();
  }

  void write(const HttpResponse& r, unsigned version, bool keep_alive, bool head, bool linger) {
    out_ = response_bytes(r, version, keep_alive, head);  // response_bytes.h: why not Beast's
    arm_after(options_.write_timeout);
    net::async_write(
        stream_, net::buffer(out_),
        [self = this->shared_from_this(), keep_alive, linger](error_code ec, std::size_t) {
          self->on_write(self->settle(ec), keep_alive, linger);
        });
  }

  void on_write(error_code ec, bool keep_alive, bool linger) {
    if (ec) {
      if (!is_peer_gone(ec)) {
        VC_LOG_DEBUG(options_.name + " response write failed", kv("err", ec.message()));
      }
      return;  // the stream is broken; dropping the last reference closes it
    }
    if (linger) return linger_close();
    if (!keep_alive || host_.is_stopping()) return close_gracefully();
    wait_for_request(false);
  }

  // A request the server will not finish reading: answer, then close.
  void refuse(HttpResponse r) {
    const unsigned version = parser_ ? parser_->get().version() : 11;
    buffer_.clear();
    parser_.reset();
    release_budget();  // the drain below reads into the connection's own fixed buffer only
    drain_budget_ = options_.body_limit + options_.header_limit + kLingerExtraBytes;
    write(r, version == 10 ? 10 : 11, false, false, true);
  }

  void linger_close() {
    // Plain TCP can say "no more from us" at once, so a client reading to the end of the stream
    // is not kept waiting; TLS would need its close_notify first, which ends the drain.
    if (!tls_) {
      error_code ignored;  // the peer may already be gone; the drain ends the same way
      stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    }
    drain();
  }

  void drain() {
    arm_after(kLingerTimeout);
    waiting_for_peer_ = true;
    stream_.async_read_some(buffer_.prepare(kReadChunk),
                            [self = this->shared_from_this()](error_code ec, std::size_t n) {
                              self->waiting_for_peer_ = false;
                              self->buffer_.clear();
                              ec = self->settle(ec);
                              // EOF, timeout, reset or cancel: the client is done or gone.
                              if (ec) return;
                              if (n >= self->drain_budget_) return self->close_gracefully();
                              self->drain_budget_ -= n;
                              self->drain();
                            });
  }

  // TLS: sends close_notify and closes without waiting for the peer's, as Go does (marking the
  // peer's close_notify as received makes SSL_shutdown complete after sending ours).
  void close_gracefully() {
    if (tls_) {
      SSL_set_shutdown(stream_.native_handle(), SSL_RECEIVED_SHUTDOWN);
      arm_after(kCloseNotifyTimeout);
      stream_.async_shutdown([self = this->shared_from_this()](error_code ec, std::size_t) {
        // Whatever happened, the connection ends here; a failed close_notify changes nothing.
        self->settle(ec);
        self->close_socket();
      });
    } else {
      close_socket();
    }
  }

  // Grows the reservation of the request in flight to `bytes` (counted as large_ says); false,
  // with the reservation unchanged, when the budget cannot give them.
  bool reserve_up_to(std::size_t bytes) {
    if (large_ != held_large_ && held_ > 0) {
      // Turned large: its bytes move to the large share.
      budget_.release(held_, held_large_);
      held_ = 0;
    }
    held_large_ = large_;
    if (bytes <= held_) return true;
    if (!budget_.try_reserve(bytes - held_, held_large_)) return false;
    held_ = bytes;
    return true;
  }

  // What the request holds once its bytes so far are parsed: header and body, the body at its
  // declared length as soon as the header is read (its buffer is sized for it then).
  std::size_t request_bytes() const {
    const std::size_t declared =
        phase_ == Phase::Body ? static_cast<std::size_t>(parser_->content_length().value_or(0)) : 0;
    return std::max(consumed_, header_bytes_ + declared);
  }

  void release_budget() {
    if (held_ > 0) budget_.release(held_, held_large_);
    held_ = 0;
  }

  // 429 at once: nothing more of this request is buffered.
  void refuse_over_budget() {
    std::string_view target;
    if (parser_ && parser_->is_header_done()) target = parser_->get().target();
    const std::string detail = std::to_string(budget_.in_use()) + " of " +
                               std::to_string(budget_.limit()) + " bytes in flight";
    refuse(service_.refuse(Refusal::OverBudget, target, detail));
  }

  void mark_idle() {
    const auto now = Clock::now().time_since_epoch().count();
    idle_since_.store(now > 0 ? now : 1, std::memory_order_relaxed);
  }

  void close_socket() {
    error_code ignored;  // closing a socket the peer already reset is not worth a log line
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  ConnectionHost& host_;
  const HttpService& service_;
  const HttpServerOptions& options_;
  net_tls::TlsSocket stream_;
  net::steady_timer deadline_;  // of the operation in progress (arm)
  std::uint64_t round_ = 0;     // which arm() the pending deadline belongs to
  bool timed_out_ = false;
  const bool tls_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::string out_;  // the answer being written
  http::response<http::empty_body> continue_;
  Clock::time_point first_deadline_;
  Clock::time_point request_start_;  // when the wait for the current request began
  // Where the request being read is: nothing of it yet, its header, its body; and when the
  // current phase must end.
  enum class Phase { Idle, Header, Body } phase_ = Phase::Idle;
  Clock::time_point phase_deadline_;
  bool first_request_ = true;
  int served_ = 0;
  std::size_t drain_budget_ = 0;
  bool waiting_for_peer_ = false;  // an operation only the client can complete is pending
  std::optional<net::steady_timer> stop_timer_;  // ends the idle drain of shutdown()
  ByteBudget& budget_;
  std::size_t held_ = 0;          // bytes of budget_ the request in flight holds
  bool held_large_ = false;       // whether held_ counts in the large share
  bool large_ = false;            // whether the request in flight is large (byte_budget.h)
  std::size_t consumed_ = 0;      // bytes of the request in flight given to the parser
  std::size_t header_bytes_ = 0;  // of which its header, once read
  std::atomic<std::int64_t> idle_since_{0};  // Connection::idle_since; written here, read anywhere
};

}  // namespace

std::shared_ptr<Connection> make_connection(tcp::socket&& socket, ConnectionHost& host,
                                            const SslContextPtr& tls) {
  return std::make_shared<Session>(std::move(socket), host, tls);
}

}  // namespace vc::server
