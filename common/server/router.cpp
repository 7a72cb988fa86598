#include "common/server/router.h"

#include <exception>

#include "common/log/log.h"
#include "common/metrics/registry.h"

namespace vc::server {
namespace {

bool run_one(const std::string& name, const Check& check) {
  try {
    return check();
  } catch (const std::exception& e) {
    VC_LOG_ERROR("check threw", kv("check", name), kv("err", e.what()));
  } catch (...) {
    VC_LOG_ERROR("check threw", kv("check", name), kv("err", "unknown exception"));
  }
  return false;
}

bool has_query_flag(std::string_view query, std::string_view flag) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    std::string_view item = query.substr(0, amp);
    item = item.substr(0, item.find('='));
    if (item == flag) return true;
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return false;
}

}  // namespace

Router::Router() {
  handlers_.emplace("/metrics", [](const Request&) {
    Response r;
    r.content_type = std::string(kMetricsContentType);
    r.body = vc::metrics::render_text();
    return r;
  });
  auto health = [this](const Request& request) {
    Checks checks;
    {
      std::lock_guard lock(mu_);
      checks = health_;
    }
    return run_checks(checks, "healthz", request);
  };
  handlers_.emplace("/healthz", health);
  handlers_.emplace("/livez", health);
  handlers_.emplace("/readyz", [this](const Request& request) {
    Checks checks;
    {
      std::lock_guard lock(mu_);
      checks = ready_;
    }
    return run_checks(checks, "readyz", request);
  });
}

void Router::put_check(Checks& checks, std::string name, Check check) {
  for (auto& [existing, fn] : checks) {
    if (existing == name) {
      fn = std::move(check);
      return;
    }
  }
  checks.emplace_back(std::move(name), std::move(check));
}

void Router::add_health_check(std::string name, Check check) {
  std::lock_guard lock(mu_);
  put_check(health_, std::move(name), std::move(check));
}

void Router::add_ready_check(std::string name, Check check) {
  std::lock_guard lock(mu_);
  put_check(ready_, std::move(name), std::move(check));
}

void Router::add_handler(std::string path, Handler handler) {
  std::lock_guard lock(mu_);
  handlers_.insert_or_assign(std::move(path), std::move(handler));
}

Response Router::run_checks(const Checks& checks, std::string_view what, const Request& request) {
  std::string listing;
  std::vector<std::string_view> failed;
  for (const auto& [name, check] : checks) {
    const bool ok = run_one(name, check);
    if (!ok) failed.push_back(name);
    listing += (ok ? "[+]" : "[-]") + name + (ok ? " ok\n" : " failed\n");
  }
  if (failed.empty()) {
    if (has_query_flag(request.query, "verbose")) {
      return Response::text(200, listing + std::string(what) + " check passed\n");
    }
    return Response::text(200, "ok");
  }
  std::string names;
  for (const auto name : failed) names += (names.empty() ? "" : ",") + std::string(name);
  VC_LOG_WARN("check failed", kv("endpoint", what), kv("failed", names));
  return Response::text(500, listing + std::string(what) + " check failed\n");
}

Response Router::route(const Request& request) const {
  Handler handler;
  {
    std::lock_guard lock(mu_);
    const auto it = handlers_.find(request.path);
    if (it == handlers_.end()) return Response::text(404, "404 page not found\n");
    handler = it->second;
  }
  if (request.method != "GET" && request.method != "HEAD") {
    Response r = Response::text(405, "method not allowed\n");
    r.headers.emplace_back("Allow", "GET, HEAD");
    return r;
  }
  try {
    return handler(request);
  } catch (const std::exception& e) {
    VC_LOG_ERROR("handler threw", kv("path", request.path), kv("err", e.what()));
  } catch (...) {
    VC_LOG_ERROR("handler threw", kv("path", request.path), kv("err", "unknown exception"));
  }
  return Response::text(500, "internal error\n");
}

}  // namespace vc::server
