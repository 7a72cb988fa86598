#include "common/server/response_bytes.h"

#include <boost/beast/http/status.hpp>

namespace vc::server {

std::string response_bytes(const HttpResponse& response, unsigned version, bool keep_alive,
                           bool head) {
  namespace http = boost::beast::http;
  const std::string_view reason =
      http::obsolete_reason(http::int_to_status(static_cast<unsigned>(response.status)));
  const std::string length = std::to_string(response.body.size());
  std::string out;
  out.reserve(160 + response.content_type.size() + (head ? 0 : response.body.size()));
  out += version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ";
  out += std::to_string(response.status);
  out += ' ';
  out += reason;
  out += "\r\nContent-Type: ";
  out += response.content_type;
  out += "\r\nX-Content-Type-Options: nosniff\r\n";
  for (const auto& [name, value] : response.headers) {
    out += name;
    out += ": ";
    out += value;
    out += "\r\n";
  }
  // HTTP/1.1 keeps the connection unless told; 1.0 closes it unless told.
  if (version >= 11 && !keep_alive) out += "Connection: close\r\n";
  if (version < 11 && keep_alive) out += "Connection: keep-alive\r\n";
  out += "Content-Length: ";
  out += length;
  out += "\r\n\r\n";
  if (!head) out += response.body;
  return out;
}

}  // namespace vc::server
