// HTTP/1.1 over Boost.Beast, TLS by OpenSSL on the socket (tls_socket.h), one io_context per
// pooled connection.
//
// Each connection owns its io_context and stream. The calling thread drives one asynchronous
// operation at a time with io_context::run(), so a deadline is a timer armed for that operation
// and there is no background I/O thread. A stop request from another thread posts a close to the
// connection's io_context (post is thread-safe), which aborts whatever operation is pending.

#include "common/kube/transport.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <variant>
#include <vector>

#include <spdlog/spdlog.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include "common/kube/errors.h"
#include "common/kube/server_url.h"
#include "common/kube/stoppable_sleep.h"
#include "common/net/tls_socket.h"

namespace vc::kube {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using net::TlsSocket;

// A watch's body is read this much at a time. One TLS record (at most 16 KiB) is what a read
// returns at most anyway; a larger buffer only costs memory in every open watch.
constexpr std::size_t kStreamBufferSize = 16 * 1024;
constexpr std::uint32_t kHeaderLimit = 256 * 1024;

// One pooled connection: its own io_context and stream. Only the thread that borrowed it from
// the pool uses it; cancel_async() may be called from any thread.
struct Connection {
  explicit Connection(bool use_tls) : tls(use_tls) {}

  // The completion handler of every operation: one type, so that each Beast operation is
  // instantiated once, whatever the call site.
  struct Done {
    Connection* c;
    template <class... Rest>
    void operator()(beast::error_code ec, Rest&&...) const {
      c->result = ec;
      c->finished = true;
      c->timer.cancel();
    }
  };
  // The deadline passed with the operation pending: close the socket, which aborts it.
  struct Expiry {
    Connection* c;
    void operator()(beast::error_code ec) const {
      if (ec || c->finished) return;
      c->timed_out = true;
      c->close();
    }
  };

  // Runs `initiate(Done)` and drives the io_context until nothing is pending. An operation still
  // pending at the deadline fails with beast::error::timeout and leaves the connection closed.
  template <class Initiate>
  beast::error_code run(Initiate&& initiate) {
    result = {};
    finished = false;
    timed_out = false;
    if (deadline != Clock::time_point::max()) {
      timer.expires_at(deadline);
      timer.async_wait(Expiry{this});
    }
    initiate(Done{this});
    ioc.restart();
    ioc.run();
    return timed_out ? beast::error_code(beast::error::timeout) : result;
  }

  tcp::socket& socket() { return stream.socket(); }

  void set_deadline(Clock::time_point d) { deadline = d; }

  void close() {
    beast::error_code ignored;
    socket().close(ignored);
  }

  // Thread-safe: aborts the pending operation from another thread. The socket lingers 0 s
  // (set_socket_options), so closing it resets the connection: nothing of the request still
  // queued is sent after the caller gave up on it.
  void cancel_async() {
    asio::post(ioc, [this] { close(); });
  }

  // An idle HTTP/1.1 connection has nothing to read; readable means the server closed it (EOF or
  // a TLS close_notify) or sent garbage. Either way it must not be reused.
  bool looks_alive() { return socket().is_open() && buffer.size() == 0 && !input_below_beast(); }

  // Received bytes Beast has not seen yet: in the TLS layer (decrypted, or read ahead from the
  // socket and not yet decrypted), or readable on the socket.
  bool input_below_beast() {
    if (SSL* ssl = stream.native_handle(); ssl != nullptr && SSL_has_pending(ssl) == 1) return true;
    pollfd pfd{socket().native_handle(), POLLIN, 0};
    return ::poll(&pfd, 1, 0) != 0;
  }

  // Whether nothing received is waiting to be read: not in Beast's buffer, not in the TLS
  // layer, not in the socket. (A TLS read returns one record, and the API server writes each
  // watch event as its own record, so an empty buffer alone says nothing about the socket.)
  // Beast keeps the CRLF that ends a chunk until the next chunk's size line arrives: that is not
  // data waiting.
  bool drained() {
    const std::string_view held(static_cast<const char*>(buffer.data().data()), buffer.size());
    if (held.size() > 2 || held.find_first_not_of("\r\n") != std::string_view::npos) return false;
    return !input_below_beast();
  }

  asio::io_context ioc{1};
  TlsSocket stream{ioc};
  asio::steady_timer timer{ioc};
  beast::flat_buffer buffer;
  const bool tls;
  Clock::time_point deadline = Clock::time_point::max();
  beast::error_code result;
  bool finished = false;
  bool timed_out = false;
  Clock::time_point idle_since{};
  bool connected = false;
};

void set_socket_options(tcp::socket& socket) {
  // Closing a connection resets it (SO_LINGER 0 s) instead of draining it: a connection is only
  // closed with work pending when its request was cancelled or timed out, and a write the caller
  // has given up on must not reach the server later, once a network partition heals. A leader
  // that lost its lease relies on this (Client::fence). Keep-alive: watches sit idle for
  // minutes; the probes find a server that vanished without a FIN.
  beast::error_code ec;
  socket.set_option(asio::socket_base::linger(true, 0), ec);
  socket.set_option(tcp::no_delay(true), ec);
  socket.set_option(asio::socket_base::keep_alive(true), ec);
  const int fd = socket.native_handle();
  int idle = 30, interval = 10, count = 3;
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
}

// What went wrong in one exchange, and whether the request may be sent again on a fresh
// connection (the reused connection was dead before the server could have read anything).
struct Failure {
  ApiError error;
  bool stale_connection = false;
};

}  // namespace

struct Transport::Impl {
  Impl(const Config& config, TransportOptions opts)
      : endpoint(parse_server_url(config.server)),
        ctx(ssl::context::tls_client),
        token(config.token),
        options(std::move(opts)) {
    verify_name = config.tls_server_name.empty() ? endpoint.host : config.tls_server_name;
    verify_peer = !config.insecure_skip_tls_verify;
    url_prefix = std::string(endpoint.tls ? "https://" : "http://") + endpoint.host_header;
    if (endpoint.tls) setup_tls(config);
  }

  void setup_tls(const Config& config) {
    SSL_CTX_set_min_proto_version(ctx.native_handle(), TLS1_2_VERSION);
    try {
      if (!config.ca_pem.empty()) {
        ctx.add_certificate_authority(asio::buffer(config.ca_pem));
      } else {
        ctx.set_default_verify_paths();
      }
    } catch (const boost::system::system_error& e) {
      throw ConfigError("certificate-authority: not a usable PEM certificate: " +
                        std::string(e.what()));
    }
    if (config.client_cert_pem.empty() != config.client_key_pem.empty()) {
      throw ConfigError(
          "client-certificate and client-key: both are needed for client certificate auth");
    }
    if (!config.client_cert_pem.empty()) {
      try {
        ctx.use_certificate_chain(asio::buffer(config.client_cert_pem));
      } catch (const boost::system::system_error& e) {
        throw ConfigError("client-certificate: not a usable PEM certificate: " +
                          std::string(e.what()));
      }
      try {
        ctx.use_private_key(asio::buffer(config.client_key_pem), ssl::context::pem);
      } catch (const boost::system::system_error& e) {
        throw ConfigError("client-key: not a usable PEM private key: " + std::string(e.what()));
      }
      if (SSL_CTX_check_private_key(ctx.native_handle()) != 1) {
        throw ConfigError("client-key: does not match client-certificate");
      }
    }
    ctx.set_verify_mode(verify_peer ? ssl::verify_peer : ssl::verify_none);
  }

  // Takes an idle connection (most recently used first) or makes an unconnected one.
  std::unique_ptr<Connection> acquire(bool& reused) {
    std::vector<std::unique_ptr<Connection>> stale;  // destroyed outside the lock
    std::unique_ptr<Connection> conn;
    {
      std::lock_guard lock(mu);
      const auto oldest = Clock::now() - options.idle_timeout;
      while (!idle.empty()) {
        auto c = std::move(idle.back());
        idle.pop_back();
        if (c->idle_since >= oldest && c->looks_alive()) {
          conn = std::move(c);
          break;
        }
        stale.push_back(std::move(c));
      }
    }
    reused = conn != nullptr;
    if (!conn) conn = std::make_unique<Connection>(endpoint.tls);
    return conn;
  }

  void release(std::unique_ptr<Connection> conn) {
    conn->idle_since = Clock::now();
    std::unique_ptr<Connection> evicted;
    std::lock_guard lock(mu);
    if (static_cast<int>(idle.size()) >= options.max_idle_connections) {
      if (idle.empty()) return;  // max_idle_connections <= 0: no pooling
      evicted = std::move(idle.front());
      idle.erase(idle.begin());
    }
    idle.push_back(std::move(conn));
  }

  ApiError failure(const HttpRequest& rq, const char* step, beast::error_code ec,
                   const std::stop_token& stop) const {
    std::string msg = std::string(rq.method) + " " + url_prefix + endpoint.base_path + rq.target +
                      ": " + step + ": " + ec.message();
    if (stop.stop_requested()) return cancelled_error(std::move(msg));
    if (ec == beast::error::timeout) return timeout_error(std::move(msg));
    return transport_error(std::move(msg));
  }

  std::optional<ApiError> connect(Connection& c, const HttpRequest& rq,
                                  const std::stop_token& stop) {
    beast::error_code ec;
    tcp::resolver resolver(c.ioc);
    // Synchronous resolution: an async resolve would start a resolver thread per io_context.
    auto results =
        resolver.resolve(endpoint.host, endpoint.port, tcp::resolver::numeric_service, ec);
    if (ec) return failure(rq, "resolve", ec, stop);
    c.set_deadline(rq.deadline);
    ec = c.run([&](auto handler) { asio::async_connect(c.socket(), results, std::move(handler)); });
    if (ec) return failure(rq, "connect", ec, stop);
    opened.fetch_add(1, std::memory_order_relaxed);
    set_socket_options(c.socket());
    if (c.tls) {
      SSL* ssl = c.stream.start_tls(ctx.native_handle());
      if (ssl == nullptr) {
        return failure(
            rq, "TLS setup",
            beast::error_code(static_cast<int>(ERR_get_error()), asio::error::get_ssl_category()),
            stop);
      }
      const bool ip = is_ip_literal(verify_name);
      // SNI carries DNS names only (RFC 6066).
      if (!ip) SSL_set_tlsext_host_name(ssl, verify_name.c_str());
      // The certificate must name the server: its IP address SAN for an address, else a DNS SAN.
      if (verify_peer) {
        if (ip) {
          X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), verify_name.c_str());
        } else {
          SSL_set1_host(ssl, verify_name.c_str());
        }
      }
      ec = c.run([&](auto handler) { c.stream.async_handshake(std::move(handler)); });
      if (ec) return failure(rq, "TLS handshake", ec, stop);
    }
    c.connected = true;
    return std::nullopt;
  }

  http::request<http::span_body<const char>> build(const HttpRequest& rq) const {
    http::request<http::span_body<const char>> req;
    const auto verb = http::string_to_verb(rq.method);
    if (verb == http::verb::unknown) {
      req.method_string(rq.method);
    } else {
      req.method(verb);
    }
    req.target(endpoint.base_path.empty() ? rq.target : endpoint.base_path + rq.target);
    req.version(11);
    req.set(http::field::host, endpoint.host_header);
    req.set(http::field::user_agent, options.user_agent);
    req.set(http::field::accept, rq.accept);
    if (!rq.authorization.empty()) {
      req.set(http::field::authorization, rq.authorization);
    } else if (token) {
      const std::string t = token->token();
      if (!t.empty()) req.set(http::field::authorization, "Bearer " + t);
    }
    if (!rq.content_type.empty()) req.set(http::field::content_type, rq.content_type);
    req.body() = {rq.body.data(), rq.body.size()};
    if (!rq.body.empty() || !rq.content_type.empty()) req.prepare_payload();
    return req;
  }

  // Writes the request on a connected connection. Returns the failure, if any.
  std::optional<Failure> write(Connection& c, const HttpRequest& rq, bool reused,
                               const std::stop_token& stop) {
    auto req = build(rq);
    c.set_deadline(rq.deadline);
    auto ec = c.run([&](auto handler) { http::async_write(c.stream, req, std::move(handler)); });
    if (!ec) return std::nullopt;
    return Failure{failure(rq, "write", ec, stop),
                   reused && !stop.stop_requested() && ec != beast::error::timeout};
  }

  // Opens (when needed) and writes; on failure returns it.
  std::optional<Failure> start(Connection& c, const HttpRequest& rq, bool reused,
                               const std::stop_token& stop) {
    if (!c.connected) {
      if (auto e = connect(c, rq, stop)) return Failure{std::move(*e), false};
    }
    return write(c, rq, reused, stop);
  }

  std::variant<HttpResponse, Failure> exchange(Connection& c, const HttpRequest& rq, bool reused,
                                               const std::stop_token& stop, bool& keep_alive) {
    keep_alive = false;
    if (auto f = start(c, rq, reused, stop)) return std::move(*f);
    http::response_parser<http::string_body> parser;
    // A 10k-pod list is far beyond any fixed cap: the API server's bodies have none.
    if (rq.body_limit > 0) {
      parser.body_limit(rq.body_limit);
    } else {
      parser.body_limit(boost::none);
    }
    parser.header_limit(kHeaderLimit);
    auto ec = c.run(
        [&](auto handler) { http::async_read(c.stream, c.buffer, parser, std::move(handler)); });
    if (ec) {
      // Nothing at all came back on a reused connection: the server had closed it.
      const bool stale =
          reused && !parser.got_some() && !stop.stop_requested() && ec != beast::error::timeout;
      return Failure{failure(rq, "read", ec, stop), stale};
    }
    auto& msg = parser.get();
    HttpResponse out;
    out.status = static_cast<int>(msg.result_int());
    out.reason = std::string(msg.reason());
    if (auto it = msg.find(http::field::content_type); it != msg.end()) {
      out.content_type = std::string(it->value());
    }
    if (auto it = msg.find(http::field::retry_after); it != msg.end()) {
      out.retry_after = std::string(it->value());
    }
    keep_alive = msg.keep_alive();
    out.body = std::move(msg.body());
    return out;
  }

  Result<HttpResponse> send(const HttpRequest& rq, const std::stop_token& stop) {
    // A GET that found its pooled connection dead is sent once more on a fresh one.
    for (int attempt = 0;; ++attempt) {
      if (stop.stop_requested()) return cancelled_error(std::string(rq.method) + " cancelled");
      bool reused = false;
      auto conn = acquire(reused);
      bool keep_alive = false;
      std::variant<HttpResponse, Failure> outcome;
      {
        std::stop_callback on_stop(stop, [&c = *conn] { c.cancel_async(); });
        outcome = exchange(*conn, rq, reused, stop, keep_alive);
      }
      if (auto* resp = std::get_if<HttpResponse>(&outcome)) {
        // A posted close may still be queued when stop was requested: never pool that connection.
        if (keep_alive && !stop.stop_requested()) release(std::move(conn));
        return std::move(*resp);
      }
      auto& f = std::get<Failure>(outcome);
      if (f.stale_connection && rq.method == "GET" && attempt == 0) {
        spdlog::debug(
            "kube transport: reused connection was closed by the server, retrying "
            "host={} target={}",
            endpoint.host_header, rq.target);
        continue;
      }
      return std::move(f.error);
    }
  }

  Status read_stream(Connection& c, const HttpRequest& rq,
                     const std::function<bool(std::string_view)>& on_data,
                     const std::stop_token& stop, Clock::time_point body_deadline,
                     const StreamPacing& pacing, bool reused, bool& keep_alive, bool& stale) {
    http::response_parser<http::buffer_body> parser;
    parser.body_limit(boost::none);
    parser.header_limit(kHeaderLimit);
    auto ec = c.run([&](auto handler) {
      http::async_read_header(c.stream, c.buffer, parser, std::move(handler));
    });
    if (ec) {
      stale = reused && !parser.got_some() && !stop.stop_requested() && ec != beast::error::timeout;
      return failure(rq, "read header", ec, stop);
    }
    const int status = static_cast<int>(parser.get().result_int());
    if (status < 200 || status >= 300) {
      // An error status carries a Status body: read it whole to decode it.
      http::response_parser<http::string_body> whole(std::move(parser));
      ec = c.run(
          [&](auto handler) { http::async_read(c.stream, c.buffer, whole, std::move(handler)); });
      if (ec) return failure(rq, "read error body", ec, stop);
      keep_alive = whole.get().keep_alive();
      std::string retry_after;
      if (auto it = whole.get().find(http::field::retry_after); it != whole.get().end()) {
        retry_after = std::string(it->value());
      }
      return error_from_response(status, whole.get().body(), retry_after);
    }
    std::vector<char> buf(kStreamBufferSize);
    c.set_deadline(body_deadline);
    while (!parser.is_done()) {
      if (stop.stop_requested())
        return cancelled_error(std::string(rq.method) + " " + rq.target + ": stream cancelled");
      parser.get().body().data = buf.data();
      parser.get().body().size = buf.size();
      ec = c.run([&](auto handler) {
        http::async_read_some(c.stream, c.buffer, parser, std::move(handler));
      });
      if (ec == http::error::need_buffer) ec = {};  // our buffer is full: hand it over
      const std::size_t n = buf.size() - parser.get().body().size;
      if (n > 0 && !on_data(std::string_view(buf.data(), n))) {
        return cancelled_error(std::string(rq.method) + " " + rq.target +
                               ": stream abandoned by its reader");
      }
      if (ec) return failure(rq, "read body", ec, stop);
      // Everything that arrived is read (our buffer was not simply full, nothing waits anywhere)
      // and the reader is between messages: let the next events pile up in the socket.
      if (pacing.pause.count() > 0 && n < buf.size() && !parser.is_done() &&
          (!pacing.at_boundary || pacing.at_boundary()) && c.drained()) {
        sleep_unless_stopped(pacing.pause, stop);
      }
    }
    keep_alive = parser.get().keep_alive();
    return ok_status();
  }

  Status stream(const HttpRequest& rq, const std::function<bool(std::string_view)>& on_data,
                const std::stop_token& stop, Clock::time_point body_deadline,
                const StreamPacing& pacing) {
    // Like send(): a watch that found its pooled connection dead starts once more on a fresh one.
    for (int attempt = 0;; ++attempt) {
      if (stop.stop_requested()) return cancelled_error(std::string(rq.method) + " cancelled");
      bool reused = false;
      auto conn = acquire(reused);
      bool keep_alive = false;
      bool stale = false;
      Status result = ok_status();
      {
        std::stop_callback on_stop(stop, [&c = *conn] { c.cancel_async(); });
        if (auto f = start(*conn, rq, reused, stop)) {
          result = std::move(f->error);
          stale = f->stale_connection;
        } else {
          result = read_stream(*conn, rq, on_data, stop, body_deadline, pacing, reused, keep_alive,
                               stale);
        }
      }
      if (stale && attempt == 0) continue;
      if (keep_alive && !stop.stop_requested()) release(std::move(conn));
      return result;
    }
  }

  const ServerUrl endpoint;
  ssl::context ctx;  // configured once in the constructor, then only read
  std::shared_ptr<TokenSource> token;
  const TransportOptions options;
  std::string verify_name;
  bool verify_peer = true;
  std::string url_prefix;
  std::atomic<std::uint64_t> opened{0};

  std::mutex mu;
  std::vector<std::unique_ptr<Connection>> idle;  // guarded by mu; most recent at the back
};

Transport::Transport(const Config& config, TransportOptions options)
    : impl_(std::make_unique<Impl>(config, std::move(options))) {}

Transport::~Transport() = default;

Result<HttpResponse> Transport::send(const HttpRequest& request, std::stop_token stop) {
  return impl_->send(request, stop);
}

Status Transport::stream(const HttpRequest& request,
                         const std::function<bool(std::string_view)>& on_data, std::stop_token stop,
                         std::chrono::steady_clock::time_point body_deadline,
                         const StreamPacing& pacing) {
  return impl_->stream(request, on_data, stop, body_deadline, pacing);
}

const std::string& Transport::host() const {
  return impl_->endpoint.host_header;
}

std::uint64_t Transport::connections_opened() const {
  return impl_->opened.load(std::memory_order_relaxed);
}

}  // namespace vc::kube
