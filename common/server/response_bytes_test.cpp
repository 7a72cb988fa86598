#include "common/server/response_bytes.h"

#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <boost/beast/http.hpp>

namespace vc::server {
namespace {

namespace http = boost::beast::http;

// What Beast's serializer writes for the same answer, built as the server used to build it.
std::string beast_bytes(const HttpResponse& r, unsigned version, bool keep_alive, bool head) {
  http::response<http::string_body> res;
  res.version(version);
  res.result(static_cast<unsigned>(r.status));
  res.set(http::field::content_type, r.content_type);
  res.set("X-Content-Type-Options", "nosniff");
  for (const auto& [name, value] : r.headers) res.set(name, value);
  res.body() = r.body;
  res.keep_alive(keep_alive);
  res.prepare_payload();
  if (head) res.body().clear();
  std::ostringstream out;
  out << res;
  return out.str();
}

TEST(ResponseBytes, AreWhatBeastsSerializerWrites) {
  const HttpResponse answers[] = {
      {200, "application/json", R"({"kind":"AdmissionReview","response":{"uid":"u"}})"},
      {400, "text/plain; charset=utf-8", "bad AdmissionReview: request is missing\n"},
      {404, "text/plain; charset=utf-8", "404 page not found\n"},
      {413, "text/plain; charset=utf-8", "request body too large\n"},
      {415, "text/plain; charset=utf-8", "unsupported Content-Type\n"},
      {431, "text/plain; charset=utf-8", "request header too large\n"},
      {500, "text/plain; charset=utf-8", "admission /jobs/validate failed: boom\n"},
      {200, "application/json", ""},
  };
  for (const HttpResponse& r : answers) {
    for (unsigned version : {10u, 11u}) {
      for (bool keep_alive : {false, true}) {
        for (bool head : {false, true}) {
          EXPECT_EQ(response_bytes(r, version, keep_alive, head),
                    beast_bytes(r, version, keep_alive, head))
              << r.status << " HTTP/" << version << " keep_alive=" << keep_alive
              << " head=" << head;
        }
      }
    }
  }
}

// The metrics server's answers carry extra headers (405's Allow), after nosniff as Beast put them.
TEST(ResponseBytes, ExtraHeadersAreWhatBeastsSerializerWrites) {
  HttpResponse r = HttpResponse::text(405, "method not allowed\n");
  r.headers.emplace_back("Allow", "GET, HEAD");
  r.headers.emplace_back("Cache-Control", "no-store");
  for (unsigned version : {10u, 11u}) {
    for (bool keep_alive : {false, true}) {
      for (bool head : {false, true}) {
        EXPECT_EQ(response_bytes(r, version, keep_alive, head),
                  beast_bytes(r, version, keep_alive, head))
            << "HTTP/" << version << " keep_alive=" << keep_alive << " head=" << head;
      }
    }
  }
}

TEST(ResponseBytes, ACloseOn11AndTheLengthOfTheBodyEvenForHead) {
  const HttpResponse r{200, "application/json", "{}"};
  EXPECT_EQ(response_bytes(r, 11, false, true),
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Content-Type-Options: "
            "nosniff\r\nConnection: close\r\nContent-Length: 2\r\n\r\n");
}

}  // namespace
}  // namespace vc::server
