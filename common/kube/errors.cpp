#include "common/kube/errors.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "common/kube/proto/envelope.h"

namespace vc::kube {
namespace {

ErrorKind kind_from_code(int code) {
  switch (code) {
    case 400:
      return ErrorKind::BadRequest;
    case 401:
      return ErrorKind::Unauthorized;
    case 403:
      return ErrorKind::Forbidden;
    case 404:
      return ErrorKind::NotFound;
    case 405:
      return ErrorKind::MethodNotAllowed;
    case 409:
      return ErrorKind::Conflict;
    case 410:
      return ErrorKind::Gone;
    case 422:
      return ErrorKind::Invalid;
    case 429:
      return ErrorKind::TooManyRequests;
    case 500:
      return ErrorKind::InternalError;
    case 503:
      return ErrorKind::ServiceUnavailable;
    case 504:
      return ErrorKind::ServerTimeout;
    default:
      return ErrorKind::Other;
  }
}

// The reason is more specific than the code where they disagree (409 AlreadyExists vs Conflict,
// 500 ServerTimeout, Expired with any code).
ErrorKind classify(int code, std::string_view reason) {
  if (reason == "AlreadyExists") return ErrorKind::AlreadyExists;
  if (reason == "Expired" || reason == "Gone") return ErrorKind::Gone;
  if (reason == "ServerTimeout" || reason == "Timeout") return ErrorKind::ServerTimeout;
  if (reason == "TooManyRequests") return ErrorKind::TooManyRequests;
  if (code == 0) {
    if (reason == "NotFound") return ErrorKind::NotFound;
    if (reason == "Conflict") return ErrorKind::Conflict;
    if (reason == "Invalid") return ErrorKind::Invalid;
    if (reason == "BadRequest") return ErrorKind::BadRequest;
    if (reason == "Unauthorized") return ErrorKind::Unauthorized;
    if (reason == "Forbidden") return ErrorKind::Forbidden;
    if (reason == "MethodNotAllowed") return ErrorKind::MethodNotAllowed;
    if (reason == "InternalError") return ErrorKind::InternalError;
    if (reason == "ServiceUnavailable") return ErrorKind::ServiceUnavailable;
  }
  return kind_from_code(code);
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Retry-After in delta-seconds; the HTTP-date form is not sent by the API server and is ignored.
std::optional<std::chrono::seconds> parse_retry_after(std::string_view header) {
  header = trim(header);
  long long seconds = 0;
  auto [end, ec] = std::from_chars(header.data(), header.data() + header.size(), seconds);
  if (ec != std::errc() || end != header.data() + header.size() || seconds < 0) return std::nullopt;
  return std::chrono::seconds(seconds);
}

std::string string_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return {};
  return it->get<std::string>();
}

// Fills reason, message, causes and retry_after from a Status object; returns its code (0 if none).
int decode_status(const nlohmann::json& status, ApiError& e) {
  e.reason = string_field(status, "reason");
  e.message = string_field(status, "message");
  int code = 0;
  if (auto it = status.find("code"); it != status.end() && it->is_number_integer()) {
    code = it->get<int>();
  }
  auto details = status.find("details");
  if (details == status.end() || !details->is_object()) return code;
  if (auto causes = details->find("causes"); causes != details->end() && causes->is_array()) {
    for (const auto& c : *causes) {
      if (!c.is_object()) continue;
      e.causes.push_back(
          {string_field(c, "reason"), string_field(c, "field"), string_field(c, "message")});
    }
  }
  if (auto ra = details->find("retryAfterSeconds"); ra != details->end() && ra->is_number()) {
    const auto seconds = ra->get<int64_t>();
    if (seconds > 0) e.retry_after = std::chrono::seconds(seconds);
  }
  return code;
}

}  // namespace

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::BadRequest:
      return "BadRequest";
    case ErrorKind::Unauthorized:
      return "Unauthorized";
    case ErrorKind::Forbidden:
      return "Forbidden";
    case ErrorKind::NotFound:
      return "NotFound";
    case ErrorKind::MethodNotAllowed:
      return "MethodNotAllowed";
    case ErrorKind::AlreadyExists:
      return "AlreadyExists";
    case ErrorKind::Conflict:
      return "Conflict";
    case ErrorKind::Gone:
      return "Gone";
    case ErrorKind::Invalid:
      return "Invalid";
    case ErrorKind::TooManyRequests:
      return "TooManyRequests";
    case ErrorKind::InternalError:
      return "InternalError";
    case ErrorKind::ServiceUnavailable:
      return "ServiceUnavailable";
    case ErrorKind::ServerTimeout:
      return "ServerTimeout";
    case ErrorKind::Transport:
      return "Transport";
    case ErrorKind::Timeout:
      return "Timeout";
    case ErrorKind::Cancelled:
      return "Cancelled";
    case ErrorKind::Other:
      return "Other";
  }
  return "Unknown";
}

bool ApiError::has_cause(std::string_view type) const {
  return std::any_of(causes.begin(), causes.end(),
                     [type](const Cause& c) { return c.type == type; });
}

bool ApiError::retryable() const {
  switch (kind) {
    case ErrorKind::TooManyRequests:
    case ErrorKind::InternalError:
    case ErrorKind::ServiceUnavailable:
    case ErrorKind::ServerTimeout:
    case ErrorKind::Transport:
    case ErrorKind::Timeout:
      return true;
    default:
      return false;
  }
}

std::string ApiError::describe() const {
  std::string out = to_string(kind);
  if (http_status != 0) out += " (" + std::to_string(http_status) + ")";
  if (!message.empty()) {
    out += ": ";
    out += message;
  } else if (!reason.empty() && reason != to_string(kind)) {
    out += ": ";
    out += reason;
  }
  for (const auto& c : causes) {
    // The Status message usually lists the causes already; add only what it does not say.
    if (!c.message.empty() && message.find(c.message) != std::string::npos) continue;
    out += "; ";
    if (!c.field.empty()) out += c.field + ": ";
    out += c.message.empty() ? c.type : c.message;
  }
  if (retry_after) out += " (retry after " + std::to_string(retry_after->count()) + "s)";
  return out;
}

ApiError error_from_status(const nlohmann::json& status, int http_status) {
  ApiError e;
  if (!status.is_object()) {
    e.http_status = http_status;
    e.kind = kind_from_code(http_status);
    e.message = status.dump();
    return e;
  }
  const int code = decode_status(status, e);
  e.http_status = http_status != 0 ? http_status : code;
  e.kind = classify(e.http_status, e.reason);
  return e;
}

ApiError error_from_response(int http_status, const std::string& body,
                             const std::string& retry_after_header) {
  ApiError e;
  bool decoded = false;
  // Only bodies that look like an object are parsed: proxies answer with HTML or plain text.
  const std::string_view view = trim(body);
  if (proto::is_enveloped(body)) {  // a protobuf Status (the request accepted protobuf)
    auto j = proto::decode_object(proto::k8s_schema(), body);
    if (j && j->is_object() &&
        (j->contains("reason") || j->contains("message") || j->contains("code"))) {
      e = error_from_status(*j, http_status);
      decoded = true;
    }
  } else if (!view.empty() && view.front() == '{') {
    auto j = nlohmann::json::parse(view, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && (j.contains("reason") || j.contains("message") || j.contains("code"))) {
      e = error_from_status(j, http_status);
      decoded = true;
    }
  }
  if (!decoded) {
    e.http_status = http_status;
    e.kind = kind_from_code(http_status);
    e.message = std::string(trim(body));
    constexpr std::size_t kMaxText = 1024;  // an HTML error page is not worth a whole log line
    if (e.message.size() > kMaxText) {
      e.message.resize(kMaxText);
      e.message += "...";
    }
  }
  // The header is what the server's rate limiting actually asked for; it wins over the body.
  if (auto ra = parse_retry_after(retry_after_header)) e.retry_after = ra;
  return e;
}

ApiError transport_error(std::string message) {
  ApiError e;
  e.kind = ErrorKind::Transport;
  e.message = std::move(message);
  return e;
}

ApiError timeout_error(std::string message) {
  ApiError e = transport_error(std::move(message));
  e.kind = ErrorKind::Timeout;
  return e;
}

bool is_transient(const ApiError& e) {
  if (e.retryable() || e.kind == ErrorKind::Cancelled) return true;
  // A code we have no kind for: a proxy's 502, a webhook's denial carrying a 5xx code.
  return e.http_status >= 500 && e.http_status <= 599;
}

ApiError cancelled_error(std::string message) {
  ApiError e = transport_error(std::move(message));
  e.kind = ErrorKind::Cancelled;
  return e;
}

}  // namespace vc::kube
