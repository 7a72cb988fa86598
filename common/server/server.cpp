// The metrics/health server: a Router served by the HTTP server core, with the core's options set
// from ServerOptions.
#include "common/server/server.h"

#include <stdexcept>
#include <utility>

#include "common/log/log.h"
#include "common/server/address.h"
#include "common/server/http_server.h"

namespace vc::server {
namespace {

// What the core asks of the Router: requests split into path and query, refusals in plain text.
class RouterService final : public HttpService {
 public:
  HttpResponse serve(const HttpRequest& request) const override {
    Request r;
    r.method = std::string(request.method);
    const auto q = request.target.find('?');
    r.path = std::string(request.target.substr(0, q));
    if (q != std::string_view::npos) r.query = std::string(request.target.substr(q + 1));
    return router.route(r);
  }

  HttpResponse refuse(Refusal why, std::string_view, std::string_view detail) const override {
    switch (why) {
      case Refusal::HeaderTooLarge:
        return HttpResponse::text(431, "request header too large\n");
      case Refusal::BodyTooLarge:
        return HttpResponse::text(413, "request body too large\n");
      case Refusal::OverBudget:
        return HttpResponse::busy(std::string(detail));
      case Refusal::Malformed:
        break;
    }
    return HttpResponse::text(400, "malformed request: " + std::string(detail) + "\n");
  }

  void connection_rejected(std::size_t limit) const override {
    VC_LOG_WARN("http connection limit reached, closing new connection", kv("limit", limit));
  }

  Router router;
};

HttpServerOptions core_options(const ServerOptions& o) {
  const ListenAddress address = parse_listen_address(o.address);
  return {
      .name = "http",
      .host = address.host,
      .port = address.port,
      .threads = o.threads,
      .header_limit = o.header_limit,
      .body_limit = o.body_limit,
      // read_timeout bounds each whole request, the idle wait before it included.
      .header_timeout = o.read_timeout,
      .body_timeout = o.read_timeout,
      .idle_timeout = o.read_timeout,
      .request_timeout = o.read_timeout,
      .write_timeout = o.write_timeout,
      .max_connections = o.max_connections,
      .max_requests_per_connection = o.max_requests_per_connection,
      .graceful_shutdown = o.shutdown_grace,
      // Probes and scrapes open a connection per request or retry at once: nothing to wait for.
      .stop_idle_drain = std::chrono::milliseconds::zero(),
  };
}

}  // namespace

struct Server::Impl {
  explicit Impl(const ServerOptions& options)
      : service(std::make_shared<RouterService>()), http(core_options(options), service) {}

  std::shared_ptr<RouterService> service;
  HttpServer http;
};

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>(options)) {}

Server::~Server() = default;

void Server::add_health_check(std::string name, Check check) {
  impl_->service->router.add_health_check(std::move(name), std::move(check));
}

void Server::add_ready_check(std::string name, Check check) {
  impl_->service->router.add_ready_check(std::move(name), std::move(check));
}

void Server::add_handler(std::string path, Handler handler) {
  impl_->service->router.add_handler(std::move(path), std::move(handler));
}

void Server::start() {
  impl_->http.start();
}

void Server::stop() {
  impl_->http.stop();
}

std::uint16_t Server::port() const {
  return impl_->http.port();
}

}  // namespace vc::server
