#pragma once
// Transport: HTTP/1.1 to one API server over TLS (or plain http:// for tests) with a keep-alive
// connection pool. It knows nothing about Kubernetes verbs: Client builds requests, Transport
// sends them and returns the raw status and body. All Boost.Beast/Asio code lives in
// transport.cpp; this header stays light.
//
// Thread-safety: every method may be called from many threads at once. Each call borrows one
// pooled connection for its whole duration, so calls never share a socket.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>

#include "common/kube/config.h"
#include "common/kube/result.h"

namespace vc::kube {

struct TransportOptions {
  std::string user_agent = "vc-cpp";
  int max_idle_connections = 16;
  // An idle connection older than this is closed instead of reused (servers drop idle ones).
  std::chrono::seconds idle_timeout{90};
};

struct HttpRequest {
  std::string_view method;  // "GET", "POST", ...
  std::string target;       // path and query, already escaped: "/api/v1/pods?limit=500"
  std::string body;         // sent when non-empty (or when content_type is set)
  std::string_view content_type;
  std::string_view accept = "application/json";
  // Absolute deadline for the whole exchange; time_point::max() = none.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  // Sent as the Authorization header instead of the config's bearer token when not empty (a
  // peer that is not the API server, e.g. "Basic ..." for the hyperNode-controller's UFM).
  std::string authorization = {};
  // send() fails with ErrorKind::Transport when a response body is longer; 0 = no limit.
  std::uint64_t body_limit = 0;
};

struct HttpResponse {
  int status = 0;
  std::string reason;  // the status line's reason phrase as the server sent it ("OK")
  std::string body;
  std::string content_type;
  std::string retry_after;  // the Retry-After header, "" when absent
};

// How Transport::stream reads a long-lived body (a watch).
struct StreamPacing {
  // After a read that left nothing buffered, wait this long before reading again, so that the
  // events arriving meanwhile are read with one wake-up and one read instead of one each (on a
  // busy pod watch the per-event epoll wait, read and thread switch cost more than decoding the
  // event). 0: read again at once. It delays the events of a quiet stream by at most this much;
  // a stream with data waiting is read at once, so throughput is never capped.
  std::chrono::milliseconds pause{0};
  // Asked before pausing: false while the reader holds part of a message, which is then read
  // on without a pause. Empty: always at a boundary.
  std::function<bool()> at_boundary;
};

class Transport {
 public:
  // Throws ConfigError when the server URL or the TLS material in config is unusable.
  Transport(const Config& config, TransportOptions options);
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // Sends one request and reads the whole response, whatever its status. Failures before a
  // status line was read return ErrorKind::Transport, ErrorKind::Timeout (deadline) or
  // ErrorKind::Cancelled (stop requested).
  Result<HttpResponse> send(const HttpRequest& request, std::stop_token stop = {});

  // Sends one request and, when the status is 2xx, hands the body to on_data piece by piece as it
  // arrives (chunk boundaries are arbitrary). Returns ok at the clean end of the body. When
  // on_data returns false the connection is closed and ErrorKind::Cancelled is returned. A non-2xx
  // status is read whole and returned decoded by error_from_response. request.deadline bounds
  // the wait for the response head; body_deadline bounds the whole stream. A stop request closes
  // the connection promptly and returns ErrorKind::Cancelled.
  // pacing: see StreamPacing; by default every read follows the previous one at once.
  Status stream(const HttpRequest& request, const std::function<bool(std::string_view)>& on_data,
                std::stop_token stop,
                std::chrono::steady_clock::time_point body_deadline =
                    std::chrono::steady_clock::time_point::max(),
                const StreamPacing& pacing = {});

  // "127.0.0.1:6443", for logs and metric labels.
  const std::string& host() const;
  // TCP connections opened so far (to observe keep-alive reuse in tests).
  std::uint64_t connections_opened() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vc::kube
