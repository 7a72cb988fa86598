// The fake API server's own contract: routing, the request log, unmatched paths, handler errors.

#include "common/testing/fake_apiserver.h"

#include <gtest/gtest.h>

#include "common/kube/client.h"

namespace vc::testing {
namespace {

using namespace std::chrono_literals;
using vc::kube::Client;
using vc::kube::ClientOptions;
using vc::kube::ErrorKind;
namespace resources = vc::kube::resources;

ClientOptions quick() {
  ClientOptions o;
  o.qps = 0;
  o.max_retries = 0;
  return o;
}

Response named(const std::string& who) {
  return Response::json(200, {{"who", who}});
}

TEST(FakeApiServer, ExactRouteBeatsPrefixAndLongestPrefixWins) {
  FakeApiServer server;
  server.handle_prefix("GET", "/api/v1", [](const Request&) { return named("short"); });
  server.handle_prefix("GET", "/api/v1/namespaces/ns",
                       [](const Request&) { return named("long"); });
  server.handle("GET", "/api/v1/namespaces/ns/pods/exact",
                [](const Request&) { return named("exact"); });
  Client client(server.config(), quick());
  EXPECT_EQ((*client.get(resources::pods, "ns", "exact"))["who"], "exact");
  EXPECT_EQ((*client.get(resources::pods, "ns", "other"))["who"], "long");
  EXPECT_EQ((*client.get(resources::nodes, "", "n1"))["who"], "short");
}

TEST(FakeApiServer, LaterRegistrationReplacesTheHandler) {
  FakeApiServer server;
  server.handle("GET", "/api/v1/nodes/n1", [](const Request&) { return named("first"); });
  server.handle("GET", "/api/v1/nodes/n1", [](const Request&) { return named("second"); });
  Client client(server.config(), quick());
  EXPECT_EQ((*client.get(resources::nodes, "", "n1"))["who"], "second");
}

TEST(FakeApiServer, AnyMethodRouteMatchesEveryVerb) {
  FakeApiServer server;
  server.handle("*", "/api/v1/nodes/n1", [](const Request& r) {
    return Response::json(200, {{"method", r.method}});
  });
  Client client(server.config(), quick());
  EXPECT_EQ((*client.get(resources::nodes, "", "n1"))["method"], "GET");
  EXPECT_EQ((*client.remove(resources::nodes, "", "n1"))["method"], "DELETE");
}

TEST(FakeApiServer, UnmatchedPathIsNotFoundAndStillLogged) {
  FakeApiServer server;
  Client client(server.config(), quick());
  auto r = client.get(resources::pods, "ns", "nope");
  EXPECT_TRUE(r.is(ErrorKind::NotFound));
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].path, "/api/v1/namespaces/ns/pods/nope");
}

TEST(FakeApiServer, HandlerExceptionBecomesInternalError) {
  FakeApiServer server;
  server.handle("GET", "/api/v1/nodes/n1",
                [](const Request&) -> Reply { throw std::runtime_error("bad test data"); });
  Client client(server.config(), quick());
  auto r = client.get(resources::nodes, "", "n1");
  ASSERT_TRUE(r.is(ErrorKind::InternalError));
  EXPECT_NE(r.error().message.find("bad test data"), std::string::npos);
}

TEST(FakeApiServer, WaitForRequestsTimesOutWhenNoneArrive) {
  FakeApiServer server;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(server.wait_for_requests(1, 50ms));
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 45ms);
  EXPECT_EQ(server.describe_requests(), "(no requests)\n");
}

TEST(FakeApiServer, QueryParametersAreDecoded) {
  FakeApiServer server;
  server.handle("GET", "/api/v1/pods", [](const Request&) { return named("list"); });
  Client client(server.config(), quick());
  vc::kube::ListOptions o;
  o.label_selector = "a in (x, y)";
  ASSERT_TRUE(client.list(resources::pods, "", o).ok());
  auto req = server.requests().at(0);
  EXPECT_EQ(req.param("labelSelector"), "a in (x, y)");
  EXPECT_TRUE(req.has_param("labelSelector"));
  EXPECT_FALSE(req.has_param("limit"));
}

TEST(FakeApiServer, HttpsConfigCarriesTheCa) {
  FakeApiServer server({.tls = true, .require_client_cert = false, .client_cn = "x"});
  EXPECT_EQ(server.url().rfind("https://127.0.0.1:", 0), 0u);
  EXPECT_NE(server.ca_pem().find("BEGIN CERTIFICATE"), std::string::npos);
  EXPECT_EQ(server.config().ca_pem, server.ca_pem());
  EXPECT_TRUE(server.config().client_cert_pem.empty());
}

}  // namespace
}  // namespace vc::testing
