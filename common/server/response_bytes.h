#pragma once
// The bytes of an HTTP/1.x response, status line to body, in one string.
//
// Why: the server wrote its answers through Beast's message serializer, whose chain of buffer
// views and composed write operations took about 7 % of the admission server's CPU per review,
// more than the TLS encryption. The answers are always the same shape (a status, two headers, a
// length, a body), so they are written out here, byte for byte as the serializer wrote them (the
// test compares the two), and sent with one write.
//
//   HTTP/1.1 200 OK\r\n
//   Content-Type: application/json\r\n
//   X-Content-Type-Options: nosniff\r\n
//   Allow: GET, HEAD\r\n              (response.headers, in order)
//   Connection: close\r\n            (1.1 without keep-alive; 1.0 with it: "keep-alive")
//   Content-Length: 42\r\n
//   \r\n
//   <body, left out for HEAD>
//
// Thread-safety: a pure function.

#include <string>

#include "common/server/http_message.h"

namespace vc::server {

std::string response_bytes(const HttpResponse& response, unsigned version, bool keep_alive,
                           bool head);

}  // namespace vc::server
