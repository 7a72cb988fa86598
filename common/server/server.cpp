// All Boost.Beast code of the module lives in this file. The shape follows Beast's examples:
// a listener accepts; a Session owns one connection and reads top to bottom as
// run -> do_read -> on_read -> send -> on_write -> (do_read | close).
#include "common/server/server.h"

#include <array>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "common/log/log.h"
#include "common/server/address.h"

namespace vc::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

// After an error response we stop reading requests but keep draining what the client already
// sent for a moment, so that closing does not reset the connection before it read the answer.
constexpr auto kLingerTimeout = std::chrono::seconds(1);
constexpr std::size_t kLingerMaxBytes = 64 * 1024;

class Session;

// State shared by the listener and every session.
struct Core {
  explicit Core(ServerOptions o)
      : options(std::move(o)), address(parse_listen_address(options.address)) {}

  void forget(Session* s) {
    std::lock_guard lock(mu);
    sessions.erase(s);
    sessions_cv.notify_all();
  }

  const ServerOptions options;
  const ListenAddress address;
  Router router;

  std::mutex mu;  // guards sessions and state
  std::condition_variable sessions_cv;
  std::unordered_map<Session*, std::weak_ptr<Session>> sessions;
  enum class State { Created, Running, Stopped } state = State::Created;
  std::atomic<bool> stopping{false};
  std::atomic<std::uint16_t> port{0};

  // Declared after the members above: destroying the io_context destroys pending handlers, and
  // with them sessions, which call forget().
  net::io_context ioc;
  net::strand<net::io_context::executor_type> accept_strand{net::make_strand(ioc)};
  tcp::acceptor acceptor{accept_strand};
  net::steady_timer accept_retry{accept_strand};
  std::vector<std::thread> threads;
};

// One connection. Every member runs on the connection's strand.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, Core& core) : stream_(std::move(socket)), core_(core) {}
  ~Session() { core_.forget(this); }

  void run() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->do_read(); });
  }

  // From stop(): a connection waiting for its client is closed now; one writing a response
  // finishes it and then closes (on_write sees core_.stopping).
  void shutdown() {
    net::post(stream_.get_executor(), [self = shared_from_this()] {
      if (self->waiting_for_peer_) self->stream_.cancel();
    });
  }

 private:
  void do_read() {
    if (core_.stopping) return do_close();
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(core_.options.header_limit));
    parser_->body_limit(core_.options.body_limit);
    stream_.expires_after(core_.options.read_timeout);
    waiting_for_peer_ = true;
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(error_code ec) {
    waiting_for_peer_ = false;
    // The client closed between requests: the normal end of a keep-alive connection.
    if (ec == http::error::end_of_stream) return do_close();
    // The idle or slow client ran out of time; tcp_stream has already closed the socket.
    if (ec == beast::error::timeout) return;
    // stop() cancelled the wait for the next request.
    if (ec == net::error::operation_aborted) return do_close();
    if (ec == http::error::header_limit) return send_error(431, "request header too large\n");
    if (ec == http::error::body_limit) return send_error(413, "request body too large\n");
    // Any other parse failure (bad method, bad target, a client gone mid-request, ...).
    if (ec.category() == http::make_error_code(http::error::bad_target).category()) {
      return send_error(400, "malformed request: " + ec.message() + "\n");
    }
    if (ec) {
      VC_LOG_DEBUG("http read failed", kv("err", ec.message()));
      return do_close();
    }

    const auto& req = parser_->get();
    Request request;
    request.method = std::string(req.method_string());
    const std::string_view target = req.target();
    const auto q = target.find('?');
    request.path = std::string(target.substr(0, q));
    if (q != std::string_view::npos) request.query = std::string(target.substr(q + 1));

    ++served_;
    Response response = core_.router.route(request);
    // Decided after the handler ran: stop() may have begun meanwhile.
    const bool keep_alive =
        req.keep_alive() && !core_.stopping && served_ < core_.options.max_requests_per_connection;
    send(std::move(response), req.version(), request.method == "HEAD", keep_alive);
  }

  void send(Response r, unsigned version, bool head, bool keep_alive) {
    res_ = {};
    res_.version(version);
    res_.result(static_cast<unsigned>(r.status));
    res_.set(http::field::content_type, r.content_type);
    res_.set("X-Content-Type-Options", "nosniff");
    for (auto& [name, value] : r.headers) res_.set(name, value);
    res_.body() = std::move(r.body);
    res_.keep_alive(keep_alive);
    res_.prepare_payload();
    // HEAD: the headers describe the GET body, which is not sent.
    if (head) res_.body().clear();
    stream_.expires_after(core_.options.write_timeout);
    http::async_write(stream_, res_,
                      [self = shared_from_this(), keep_alive](error_code ec, std::size_t) {
                        self->on_write(ec, keep_alive);
                      });
  }

  void on_write(error_code ec, bool keep_alive) {
    if (ec) {
      VC_LOG_DEBUG("http write failed", kv("err", ec.message()));
      return;  // the stream is broken; dropping the last reference closes it
    }
    if (!keep_alive || core_.stopping) return do_close();
    do_read();
  }

  // A request the server will not serve: answer, then close without reading further requests.
  void send_error(int status, std::string text) {
    res_ = {};
    res_.version(11);
    res_.result(static_cast<unsigned>(status));
    res_.set(http::field::content_type, "text/plain; charset=utf-8");
    res_.body() = std::move(text);
    res_.keep_alive(false);
    res_.prepare_payload();
    stream_.expires_after(core_.options.write_timeout);
    http::async_write(stream_, res_, [self = shared_from_this()](error_code ec, std::size_t) {
      if (ec) return;
      self->linger_close();
    });
  }

  void linger_close() {
    error_code ignored;  // the peer may already be gone; we close either way
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(kLingerTimeout);
    drain();
  }

  void drain() {
    waiting_for_peer_ = true;
    stream_.async_read_some(net::buffer(drain_buf_),
                            [self = shared_from_this()](error_code ec, std::size_t n) {
                              self->waiting_for_peer_ = false;
                              self->drained_ += n;
                              // EOF, timeout, reset or cancel all end the linger the same way.
                              if (ec || self->drained_ > kLingerMaxBytes) return self->do_close();
                              self->drain();
                            });
  }

  void do_close() {
    error_code ignored;  // closing a socket the peer already reset is not an error worth a log
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  Core& core_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> res_;
  std::array<char, 4096> drain_buf_{};
  std::size_t drained_ = 0;
  int served_ = 0;
  bool waiting_for_peer_ = false;  // an operation that only the client can complete is pending
};

void do_accept(Core& core);

void on_accept(Core& core, error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || core.stopping) return;  // stop() closed the acceptor
  if (ec) {
    // Typically EMFILE: back off instead of spinning on the failing accept.
    VC_LOG_WARN("http accept failed", kv("err", ec.message()));
    core.accept_retry.expires_after(std::chrono::milliseconds(100));
    core.accept_retry.async_wait([&core](error_code wait_ec) {
      if (!wait_ec && !core.stopping) do_accept(core);
    });
    return;
  }
  std::shared_ptr<Session> session;
  {
    std::lock_guard lock(core.mu);
    if (core.sessions.size() >= core.options.max_connections) {
      VC_LOG_WARN("http connection limit reached, closing new connection",
                  kv("limit", core.options.max_connections));
    } else {
      session = std::make_shared<Session>(std::move(socket), core);
      core.sessions.emplace(session.get(), session);
    }
  }
  if (session) session->run();
  do_accept(core);
}

void do_accept(Core& core) {
  core.acceptor.async_accept(net::make_strand(core.ioc), [&core](error_code ec, tcp::socket s) {
    on_accept(core, ec, std::move(s));
  });
}

// Opens, binds and listens; on failure returns the error and leaves the acceptor closed.
error_code listen_on(tcp::acceptor& acceptor, const tcp::endpoint& endpoint, bool dual_stack) {
  error_code ec;
  error_code ignored;
  acceptor.open(endpoint.protocol(), ec);
  if (ec) return ec;
  acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec && dual_stack) acceptor.set_option(net::ip::v6_only(false), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) acceptor.close(ignored);
  return ec;
}

}  // namespace

struct Server::Impl : Core {
  using Core::Core;
};

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  if (impl_->options.threads < 1) throw std::invalid_argument("server threads must be >= 1");
}

Server::~Server() {
  stop();
}

void Server::add_health_check(std::string name, Check check) {
  impl_->router.add_health_check(std::move(name), std::move(check));
}

void Server::add_ready_check(std::string name, Check check) {
  impl_->router.add_ready_check(std::move(name), std::move(check));
}

void Server::add_handler(std::string path, Handler handler) {
  impl_->router.add_handler(std::move(path), std::move(handler));
}

void Server::start() {
  Core& core = *impl_;
  std::lock_guard lock(core.mu);
  if (core.state != Core::State::Created)
    throw std::logic_error("Server::start called twice or after stop");

  error_code ec;
  if (core.address.host.empty()) {
    // All interfaces: IPv6 dual-stack where the host has IPv6, else IPv4.
    ec = listen_on(core.acceptor, {net::ip::address_v6::any(), core.address.port}, true);
    if (ec) ec = listen_on(core.acceptor, {net::ip::address_v4::any(), core.address.port}, false);
  } else {
    tcp::resolver resolver(core.ioc);
    const auto results = resolver.resolve(core.address.host, std::to_string(core.address.port),
                                          tcp::resolver::passive, ec);
    if (!ec) {
      ec = net::error::host_not_found;
      for (const auto& entry : results) {
        ec = listen_on(core.acceptor, entry.endpoint(), false);
        if (!ec) break;
      }
    }
  }
  if (ec) {
    throw std::runtime_error("cannot listen on \"" + core.options.address + "\": " + ec.message());
  }
  core.port = core.acceptor.local_endpoint().port();
  core.state = Core::State::Running;
  do_accept(core);
  for (int i = 0; i < core.options.threads; ++i) {
    core.threads.emplace_back([&core] { core.ioc.run(); });
  }
  VC_LOG_INFO("http server listening", kv("address", core.options.address),
              kv("port", core.port.load()));
}

void Server::stop() {
  Core& core = *impl_;
  std::vector<std::shared_ptr<Session>> live;
  {
    std::lock_guard lock(core.mu);
    const bool running = core.state == Core::State::Running;
    core.state = Core::State::Stopped;
    if (!running) return;
    core.stopping = true;
    for (auto& [ptr, weak] : core.sessions) {
      if (auto s = weak.lock()) live.push_back(std::move(s));
    }
  }
  net::post(core.accept_strand, [&core] {
    error_code ignored;  // closing a listening socket only fails if it is already closed
    core.acceptor.close(ignored);
    core.accept_retry.cancel();
  });
  for (auto& s : live) s->shutdown();
  live.clear();  // our references must not keep sessions alive while we wait for them to end
  {
    std::unique_lock lock(core.mu);
    if (!core.sessions_cv.wait_for(lock, core.options.shutdown_grace,
                                   [&] { return core.sessions.empty(); })) {
      VC_LOG_WARN("http server stop: closing connections still busy after the grace period",
                  kv("connections", core.sessions.size()));
    }
  }
  core.ioc.stop();
  for (auto& t : core.threads) t.join();
  core.threads.clear();
  VC_LOG_INFO("http server stopped", kv("address", core.options.address));
}

std::uint16_t Server::port() const {
  return impl_->port;
}

}  // namespace vc::server
