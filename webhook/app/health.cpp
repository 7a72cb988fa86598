#include "webhook/app/health.h"

namespace vc::webhook::app {

std::unique_ptr<vc::server::Server> make_health_server(const std::string& address) {
  auto health = std::make_unique<vc::server::Server>(vc::server::ServerOptions{.address = address});
  health->add_health_check("ping", [] { return true; });
  health->add_handler("/healthz/ping", [](const vc::server::Request&) {
    return vc::server::Response::text(200, "ok");
  });
  return health;
}

}  // namespace vc::webhook::app
