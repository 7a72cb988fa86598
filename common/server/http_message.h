#pragma once
// The request the HTTP server core (http_server.h) hands to what it serves, and the response it
// takes back: plain data, no I/O. The admission server and the metrics/health server build their
// answers from these.
//
// Thread-safety: value types.

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vc::server {

inline constexpr std::string_view kJsonContentType = "application/json";
inline constexpr std::string_view kTextContentType = "text/plain; charset=utf-8";

// One complete request. The views point into the connection's buffers: valid during the call only.
struct HttpRequest {
  std::string_view method;
  std::string_view target;        // origin-form: path with an optional "?query"
  std::string_view content_type;  // "" when absent
  std::string_view body;
};

// Work a request leaves for after its answer is on the wire (freeing the request's documents,
// writing its log line): with one request in flight the client waits for neither.
class AfterResponse {
 public:
  virtual ~AfterResponse() = default;  // does the work
};

struct HttpResponse {
  HttpResponse() = default;
  HttpResponse(int status, std::string content_type, std::string body,
               std::unique_ptr<AfterResponse> after = nullptr)
      : status(status),
        content_type(std::move(content_type)),
        body(std::move(body)),
        after(std::move(after)) {}

  // A text/plain answer.
  static HttpResponse text(int status, std::string body) {
    return {status, std::string(kTextContentType), std::move(body)};
  }

  // 429 "server busy: <detail>" with Retry-After: 1, the answer to Refusal::OverBudget: the
  // client may try again in a moment (client-go, the API server's webhook client among them,
  // waits for Retry-After and retries within its timeout).
  static HttpResponse busy(std::string detail) {
    HttpResponse r = text(429, "server busy: " + std::move(detail) + "\n");
    r.headers.emplace_back("Retry-After", "1");
    return r;
  }

  int status = 200;
  std::string content_type{kTextContentType};
  std::string body;
  // Sent after X-Content-Type-Options, in this order (response_bytes.h).
  std::vector<std::pair<std::string, std::string>> headers;
  // The transport destroys it once the answer is sent (destroying an unsent response runs it
  // too); null for answers that leave nothing behind. It may refer to whatever made the
  // response, so destroy the response first.
  std::unique_ptr<AfterResponse> after;
};

}  // namespace vc::server
