#pragma once
// Router: what the HTTP server answers, without any I/O. /metrics renders the process metrics
// registry; /healthz and /readyz run their registered checks; other GET paths go to handlers
// added with add_handler.
//
// Thread-safety: every method may be called from any thread at any time, also while requests are
// being served (a readiness check is often added once informers have been started). Checks and
// handlers run on the server's I/O threads: they must be quick and must not block.

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/server/http_message.h"

namespace vc::server {

struct Request {
  std::string method;  // "GET", "HEAD", ...
  std::string path;    // without the query
  std::string query;   // after '?', undecoded; "" when absent
};

// A handler's answer: status, content type (text/plain by default), body, extra headers.
using Response = HttpResponse;

// True when healthy. A check that throws counts as failing.
using Check = std::function<bool()>;
// Serves GET (and HEAD) requests for one path.
using Handler = std::function<Response(const Request&)>;

inline constexpr std::string_view kMetricsContentType = "text/plain; version=0.0.4";

class Router {
 public:
  Router();

  // A check with an existing name replaces it.
  void add_health_check(std::string name, Check check);
  void add_ready_check(std::string name, Check check);
  // Replaces the handler of path, including the built-in ones.
  void add_handler(std::string path, Handler handler);

  // Never throws: a handler's exception becomes a 500 (and is logged).
  Response route(const Request& request) const;

 private:
  using Checks = std::vector<std::pair<std::string, Check>>;
  // 200 "ok" when every check passes, else 500 listing the failing names. With ?verbose, every
  // check is listed as Kubernetes components do: "[+]name ok" / "[-]name failed".
  static Response run_checks(const Checks& checks, std::string_view what, const Request& request);
  static void put_check(Checks& checks, std::string name, Check check);

  mutable std::mutex mu_;  // guards the three members below
  Checks health_;
  Checks ready_;
  std::map<std::string, Handler, std::less<>> handlers_;
};

}  // namespace vc::server
