// The fake API server: an accept thread, and one thread per connection that drives its own
// io_context one operation at a time (like the client's transport). Responses are written as raw
// HTTP/1.1 so that faults (truncated bodies, resets, stalls) are easy to script.

#include "common/testing/fake_apiserver.h"

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <array>
#include <list>
#include <thread>

#include <spdlog/spdlog.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "common/kube/url.h"

namespace vc::testing {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

// What a connection needs from the server: log the request, then pick the reply.
class Router {
 public:
  virtual ~Router() = default;
  virtual Reply route(const Request& request) = 0;
};

std::string status_line(int status) {
  return "HTTP/1.1 " + std::to_string(status) + " " +
         std::string(http::obsolete_reason(http::int_to_status(static_cast<unsigned>(status)))) +
         "\r\n";
}

void parse_target(Request& r) {
  const auto q = r.target.find('?');
  r.path = vc::kube::unescape(std::string_view(r.target).substr(0, q));
  if (q == std::string::npos) return;
  std::string_view rest = std::string_view(r.target).substr(q + 1);
  while (!rest.empty()) {
    const auto amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    if (pair.empty()) continue;
    const auto eq = pair.find('=');
    std::string key = vc::kube::unescape(pair.substr(0, eq), true);
    std::string value = eq == std::string_view::npos
                            ? std::string()
                            : vc::kube::unescape(pair.substr(eq + 1), true);
    r.query[std::move(key)] = std::move(value);
  }
}

std::string peer_common_name(SSL* ssl) {
  X509* cert = SSL_get1_peer_certificate(ssl);
  if (!cert) return {};
  char cn[256] = {};
  X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, cn, sizeof cn);
  X509_free(cert);
  return cn;
}

// One accepted connection. run() executes on the connection's own thread; shutdown_async() may be
// called from any thread.
class Session {
 public:
  // on_finished runs on the session's thread as its last action; it must call set_finished().
  Session(Router& router, ssl::context& ctx, bool use_tls,
          std::function<void(Session&)> on_finished)
      : router_(router), stream_(ioc_, ctx), tls_(use_tls), on_finished_(std::move(on_finished)) {}

  beast::tcp_stream& tcp() { return stream_.next_layer(); }

  void run(int id) {
    id_ = id;
    serve();
    beast::error_code ec;
    tcp().socket().shutdown(tcp::socket::shutdown_both, ec);
    tcp().socket().close(ec);
    for (auto& s : served_) s->mark_client_gone();
    on_finished_(*this);
  }

  bool finished() const { return finished_; }
  void set_finished() { finished_ = true; }

  void shutdown_async() {
    asio::post(ioc_, [this] {
      stopping_ = true;
      timer_.cancel();
      beast::error_code ec;
      tcp().socket().shutdown(tcp::socket::shutdown_both, ec);
      tcp().socket().close(ec);
    });
  }

 private:
  // Starts one asynchronous operation and runs handlers until it completes; other operations
  // (a stream's wake-ups, a watch for the client leaving) may complete meanwhile.
  template <class Initiate>
  beast::error_code await(Initiate&& initiate) {
    bool done = false;
    beast::error_code out;
    initiate([&](beast::error_code ec, auto&&...) {
      out = ec;
      done = true;
    });
    while (!done) {
      if (ioc_.stopped()) ioc_.restart();
      ioc_.run_one();
    }
    return out;
  }

  template <class Buffers>
  bool write_buffers(const Buffers& buffers) {
    auto ec = tls_ ? await([&](auto h) { asio::async_write(stream_, buffers, std::move(h)); })
                   : await([&](auto h) { asio::async_write(tcp(), buffers, std::move(h)); });
    return !ec && !stopping_;
  }
  bool write(std::string_view bytes) {
    return write_buffers(asio::buffer(bytes.data(), bytes.size()));
  }

  void reset() {
    beast::error_code ec;
    tcp().socket().set_option(asio::socket_base::linger(true, 0), ec);
    tcp().socket().close(ec);
  }

  void serve() {
    if (tls_) {
      tcp().expires_after(std::chrono::seconds(10));
      auto ec =
          await([&](auto h) { stream_.async_handshake(ssl::stream_base::server, std::move(h)); });
      tcp().expires_never();
      if (ec) {
        spdlog::debug("fake apiserver: TLS handshake failed conn={} error={}", id_, ec.message());
        return;
      }
      client_cn_ = peer_common_name(stream_.native_handle());
    }
    while (!stopping_) {
      Request request;
      bool client_keeps_alive = true;
      if (!read_request(request, client_keeps_alive)) return;
      Reply reply = router_.route(request);
      const bool keep = reply.stream ? send_stream(reply.stream)
                                     : send_response(reply.response, client_keeps_alive);
      if (!keep || !client_keeps_alive) return;
    }
  }

  bool read_request(Request& out, bool& keep_alive) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(boost::none);
    auto ec = tls_
                  ? await([&](auto h) { http::async_read(stream_, buffer_, parser, std::move(h)); })
                  : await([&](auto h) { http::async_read(tcp(), buffer_, parser, std::move(h)); });
    if (ec) return false;
    auto& msg = parser.get();
    out.method = std::string(msg.method_string());
    out.target = std::string(msg.target());
    parse_target(out);
    for (const auto& field : msg) {
      std::string name(field.name_string());
      for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      out.headers[std::move(name)] = std::string(field.value());
    }
    out.body = std::move(msg.body());
    out.client_cert_cn = client_cn_;
    out.connection_id = id_;
    keep_alive = msg.keep_alive();
    return true;
  }

  // Waits until the client closes the connection or the server stops.
  void wait_client_gone() {
    await([&](auto h) { tcp().socket().async_wait(tcp::socket::wait_read, std::move(h)); });
  }

  bool send_response(const Response& r, bool client_keeps_alive) {
    if (r.delay.count() > 0) {
      timer_.expires_after(r.delay);
      await([&](auto h) { timer_.async_wait(std::move(h)); });
      if (stopping_) return false;
    }
    if (r.stall) {
      wait_client_gone();
      return false;
    }
    std::string head = status_line(r.status);
    head += "Content-Type: " + r.content_type + "\r\n";
    head += "Content-Length: " + std::to_string(r.body.size()) + "\r\n";
    for (const auto& [name, value] : r.headers) head += name + ": " + value + "\r\n";
    const bool close = r.close_connection || !client_keeps_alive;
    if (close) head += "Connection: close\r\n";
    head += "\r\n";
    if (r.reset_after_body_bytes) {
      const std::size_t n = std::min(*r.reset_after_body_bytes, r.body.size());
      std::array<asio::const_buffer, 2> parts{asio::buffer(head), asio::buffer(r.body.data(), n)};
      write_buffers(parts);
      reset();
      return false;
    }
    std::array<asio::const_buffer, 2> parts{asio::buffer(head), asio::buffer(r.body)};
    return write_buffers(parts) && !close;
  }

  bool send_stream(const std::shared_ptr<ResponseStream>& rs) {
    served_.push_back(rs);
    std::string head = status_line(rs->status());
    head += "Content-Type: " + rs->content_type() + "\r\nTransfer-Encoding: chunked\r\n\r\n";
    if (!write(head)) return false;
    rs->mark_started();

    woken_ = false;
    bool gone = false;
    bool watching = true;
    // The client sends nothing while it reads a response: readability means it closed.
    tcp().socket().async_wait(tcp::socket::wait_read, [&](beast::error_code ec) {
      watching = false;
      if (ec != asio::error::operation_aborted) gone = true;
      woken_ = true;
      timer_.cancel();
    });
    rs->attach([this] {
      asio::post(ioc_, [this] {
        woken_ = true;
        timer_.cancel();
      });
    });
    bool keep = false;
    bool ended = false;
    while (!ended && !gone && !stopping_) {
      for (auto& op : rs->take_ops()) {
        if (op.kind == ResponseStream::Op::Kind::Chunk) {
          if (op.bytes.empty()) continue;  // an empty chunk would end the body
          char size[32];
          const int n = std::snprintf(size, sizeof size, "%zx\r\n", op.bytes.size());
          std::array<asio::const_buffer, 3> parts{asio::buffer(size, static_cast<std::size_t>(n)),
                                                  asio::buffer(op.bytes), asio::buffer("\r\n", 2)};
          if (!write_buffers(parts)) {
            gone = true;
            break;
          }
        } else {
          if (op.kind == ResponseStream::Op::Kind::Close) {
            keep = write(std::string_view("0\r\n\r\n"));
          } else {
            reset();
          }
          ended = true;
          break;
        }
      }
      if (ended || gone || stopping_) break;
      if (!woken_) {
        timer_.expires_at(asio::steady_timer::time_point::max());
        await([&](auto h) { timer_.async_wait(std::move(h)); });
      }
      woken_ = false;
    }
    rs->attach(nullptr);
    beast::error_code ec;
    tcp().socket().cancel(ec);
    while (watching) {
      if (ioc_.stopped()) ioc_.restart();
      ioc_.run_one();
    }
    if (!keep) rs->mark_client_gone();
    return keep && !stopping_;
  }

  Router& router_;
  asio::io_context ioc_{1};
  ssl::stream<beast::tcp_stream> stream_;
  asio::steady_timer timer_{ioc_};
  beast::flat_buffer buffer_;
  const bool tls_;
  int id_ = 0;
  std::string client_cn_;
  bool stopping_ = false;  // session thread only (set by a handler posted to ioc_)
  bool woken_ = false;     // session thread only
  std::vector<std::shared_ptr<ResponseStream>> served_;
  std::function<void(Session&)> on_finished_;
  std::atomic<bool> finished_{false};
};

Reply not_found(const Request& r) {
  return Response::error(404, "NotFound",
                         "fake apiserver: no handler for " + r.method + " " + r.path);
}

}  // namespace

struct FakeApiServer::Impl : Router {
  struct Route {
    std::string method;
    std::string path;
    bool prefix = false;
    Handler handler;
  };
  struct Running {
    std::shared_ptr<Session> session;
    std::thread thread;
  };

  explicit Impl(FakeApiServerOptions opts) : options(std::move(opts)) {
    if (options.require_client_cert) options.tls = true;
    if (options.tls) {
      pki = make_pki(options.client_cn);
      ctx.use_certificate_chain(asio::buffer(pki.server.cert_pem));
      ctx.use_private_key(asio::buffer(pki.server.key_pem), ssl::context::pem);
      if (options.require_client_cert) {
        ctx.add_certificate_authority(asio::buffer(pki.ca.cert_pem));
        ctx.set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
      }
    }
    const tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), 0);
    acceptor.open(ep.protocol());
    acceptor.set_option(tcp::acceptor::reuse_address(true));
    acceptor.bind(ep);
    acceptor.listen();
    port = acceptor.local_endpoint().port();
    do_accept();
    accept_thread = std::thread([this] { accept_ioc.run(); });
  }

  ~Impl() override {
    asio::post(accept_ioc, [this] {
      beast::error_code ec;
      acceptor.close(ec);
    });
    accept_thread.join();
    std::list<Running> all;
    {
      std::lock_guard lock(mu);
      all.swap(sessions);
    }
    for (auto& r : all) r.session->shutdown_async();
    for (auto& r : all) r.thread.join();
  }

  void do_accept() {
    auto session = std::make_shared<Session>(*this, options.tls ? ctx : plain_ctx, options.tls,
                                             [this](Session& s) {
                                               // Under mu: start() joins finished sessions
                                               // while holding it.
                                               std::lock_guard lock(mu);
                                               s.set_finished();
                                               cv.notify_all();
                                             });
    acceptor.async_accept(session->tcp().socket(), [this, session](beast::error_code ec) {
      if (ec) {
        if (!acceptor.is_open()) return;
        spdlog::warn("fake apiserver: accept failed error={}", ec.message());
      } else {
        start(session);
      }
      do_accept();
    });
  }

  void start(const std::shared_ptr<Session>& session) {
    std::list<Running> done;
    std::lock_guard lock(mu);
    for (auto it = sessions.begin(); it != sessions.end();) {
      auto next = std::next(it);
      if (it->session->finished()) done.splice(done.end(), sessions, it);
      it = next;
    }
    for (auto& r : done) r.thread.join();  // finished: returns at once
    const int id = ++accepted;
    sessions.push_back({session, std::thread([session, id] { session->run(id); })});
  }

  Reply route(const Request& request) override {
    Handler handler;
    {
      std::lock_guard lock(mu);
      log.push_back(request);
      cv.notify_all();
      const Route* best = nullptr;
      for (const auto& r : routes) {
        if (r.method != "*" && r.method != request.method) continue;
        if (!r.prefix && r.path == request.path) {
          best = &r;
          break;
        }
        if (r.prefix && request.path.starts_with(r.path) &&
            (!best || (best->prefix && best->path.size() < r.path.size()))) {
          best = &r;
        }
      }
      if (best) handler = best->handler;
    }
    if (!handler) return not_found(request);
    try {
      return handler(request);
    } catch (const std::exception& e) {
      spdlog::error("fake apiserver: handler threw method={} path={} error={}", request.method,
                    request.path, e.what());
      return Response::error(500, "InternalError",
                             std::string("fake apiserver handler threw: ") + e.what());
    }
  }

  void add(std::string method, std::string path, bool prefix, Handler handler) {
    std::lock_guard lock(mu);
    for (auto& r : routes) {
      if (r.method == method && r.path == path && r.prefix == prefix) {
        r.handler = std::move(handler);
        return;
      }
    }
    // Exact routes first so that the first exact match found wins.
    Route route{std::move(method), std::move(path), prefix, std::move(handler)};
    if (prefix) {
      routes.push_back(std::move(route));
    } else {
      routes.insert(routes.begin(), std::move(route));
    }
  }

  FakeApiServerOptions options;
  Pki pki;
  ssl::context ctx{ssl::context::tls_server};
  ssl::context plain_ctx{ssl::context::tls_server};  // unused by plain sessions' I/O
  asio::io_context accept_ioc{1};
  tcp::acceptor acceptor{accept_ioc};
  std::thread accept_thread;
  std::uint16_t port = 0;

  mutable std::mutex mu;
  mutable std::condition_variable cv;
  std::vector<Route> routes;    // guarded by mu
  std::vector<Request> log;     // guarded by mu
  std::list<Running> sessions;  // guarded by mu
  int accepted = 0;             // guarded by mu
};

FakeApiServer::FakeApiServer(FakeApiServerOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}

FakeApiServer::~FakeApiServer() = default;

void FakeApiServer::handle(std::string method, std::string path, Handler handler) {
  impl_->add(std::move(method), std::move(path), false, std::move(handler));
}

void FakeApiServer::handle_prefix(std::string method, std::string prefix, Handler handler) {
  impl_->add(std::move(method), std::move(prefix), true, std::move(handler));
}

std::uint16_t FakeApiServer::port() const {
  return impl_->port;
}

std::string FakeApiServer::url() const {
  return std::string(impl_->options.tls ? "https" : "http") +
         "://127.0.0.1:" + std::to_string(impl_->port);
}

const Pki& FakeApiServer::pki() const {
  return impl_->pki;
}

vc::kube::Config FakeApiServer::config(const std::string& bearer_token) const {
  vc::kube::Config c;
  c.server = url();
  c.namespace_ = "default";
  if (impl_->options.tls) c.ca_pem = impl_->pki.ca.cert_pem;
  if (impl_->options.require_client_cert) {
    c.client_cert_pem = impl_->pki.client.cert_pem;
    c.client_key_pem = impl_->pki.client.key_pem;
  }
  if (!bearer_token.empty()) c.token = vc::kube::TokenSource::from_string(bearer_token);
  return c;
}

std::vector<Request> FakeApiServer::requests() const {
  std::lock_guard lock(impl_->mu);
  return impl_->log;
}

bool FakeApiServer::wait_for_requests(std::size_t n, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(impl_->mu);
  return impl_->cv.wait_for(lock, timeout, [&] { return impl_->log.size() >= n; });
}

void FakeApiServer::clear_requests() {
  std::lock_guard lock(impl_->mu);
  impl_->log.clear();
}

std::string FakeApiServer::describe_requests() const {
  std::lock_guard lock(impl_->mu);
  std::string out;
  for (const auto& r : impl_->log) {
    out += r.method + " " + r.target;
    if (!r.body.empty()) out += " " + r.body.substr(0, 200);
    out += "\n";
  }
  return out.empty() ? "(no requests)\n" : out;
}

int FakeApiServer::connections_accepted() const {
  std::lock_guard lock(impl_->mu);
  return impl_->accepted;
}

void FakeApiServer::drop_connections() {
  std::unique_lock lock(impl_->mu);
  std::vector<std::shared_ptr<Session>> open;
  for (auto& r : impl_->sessions) {
    r.session->shutdown_async();
    open.push_back(r.session);
  }
  // Return only once the sockets are closed, so the caller's next request cannot race them. A
  // handler that blocks keeps its session open; give up waiting after a while.
  impl_->cv.wait_for(lock, std::chrono::seconds(5), [&] {
    return std::all_of(open.begin(), open.end(), [](const auto& s) { return s->finished(); });
  });
}

}  // namespace vc::testing
