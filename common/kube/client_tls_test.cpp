// TLS: server verification against the cluster CA, host name checks, client certificates; and
// what the transport's own TLS layer (tls_socket.h) must get right beyond the handshake: bodies
// of many records both ways, deadlines, cancellation and connections the server dropped. Watch
// streams over TLS are in client_watch_test.cpp.

#include <gtest/gtest.h>

#include <future>

#include "common/kube/client.h"
#include "common/testing/fake_apiserver.h"

namespace vc::kube {
namespace {

using vc::testing::FakeApiServer;
using vc::testing::FakeApiServerOptions;
using vc::testing::Request;
using vc::testing::Response;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

ClientOptions quick(std::chrono::milliseconds request_timeout = std::chrono::seconds(5)) {
  ClientOptions o;
  o.qps = 0;
  o.max_retries = 0;
  o.request_timeout = request_timeout;
  return o;
}

// Never answers: only a deadline or a cancellation ends the call.
Response stalled(const Request&) {
  Response r;
  r.stall = true;
  return r;
}

void serve_pod(FakeApiServer& server) {
  server.handle("GET", "/api/v1/namespaces/ns/pods/p", [](const Request&) {
    return Response::json(200, {{"kind", "Pod"}, {"metadata", {{"name", "p"}}}});
  });
}

TEST(ClientTls, VerifiesTheServerAgainstTheClusterCa) {
  FakeApiServer server({.tls = true});
  serve_pod(server);
  Client client(server.config("tok"), quick());
  auto r = client.get(resources::pods, "ns", "p");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ((*r)["metadata"]["name"], "p");
  auto req = server.requests().at(0);
  EXPECT_EQ(req.header("authorization"), "Bearer tok");
  EXPECT_EQ(req.client_cert_cn, "");
}

TEST(ClientTls, WrongCaFailsWithATransportError) {
  FakeApiServer server({.tls = true});
  serve_pod(server);
  Config c = server.config();
  c.ca_pem = vc::testing::make_pki().ca.cert_pem;  // some other CA
  Client client(c, quick());
  auto r = client.get(resources::pods, "ns", "p");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Transport) << r.error().describe();
  EXPECT_NE(r.error().message.find("TLS handshake"), std::string::npos) << r.error().message;
  EXPECT_TRUE(server.requests().empty());
}

TEST(ClientTls, InsecureSkipVerifyAcceptsAnyCertificate) {
  FakeApiServer server({.tls = true});
  serve_pod(server);
  Config c = server.config();
  c.ca_pem = vc::testing::make_pki().ca.cert_pem;
  c.insecure_skip_tls_verify = true;
  Client client(c, quick());
  EXPECT_TRUE(client.get(resources::pods, "ns", "p").ok());
}

TEST(ClientTls, ServerNameOverrideIsCheckedAgainstTheCertificate) {
  FakeApiServer server({.tls = true});
  serve_pod(server);
  Config good = server.config();
  good.tls_server_name = "localhost";  // a DNS SAN of the server certificate
  auto ok = Client(good, quick()).get(resources::pods, "ns", "p");
  EXPECT_TRUE(ok.ok()) << ok.error().describe();
  Config bad = server.config();
  bad.tls_server_name = "kubernetes.example";
  auto r = Client(bad, quick()).get(resources::pods, "ns", "p");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Transport);
}

TEST(ClientTls, PresentsTheClientCertificate) {
  FakeApiServer server({.require_client_cert = true, .client_cn = "system:vc-controller"});
  serve_pod(server);
  Client client(server.config(), quick());
  auto r = client.get(resources::pods, "ns", "p");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(server.requests().at(0).client_cert_cn, "system:vc-controller");
}

TEST(ClientTls, MissingClientCertificateIsRefused) {
  FakeApiServer server({.require_client_cert = true});
  serve_pod(server);
  Config c = server.config();
  c.client_cert_pem.clear();
  c.client_key_pem.clear();
  auto r = Client(c, quick()).get(resources::pods, "ns", "p");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Transport) << r.error().describe();
  EXPECT_TRUE(server.requests().empty());
}

TEST(ClientTls, KeepAliveReusesOneTlsConnection) {
  FakeApiServer server({.tls = true});
  serve_pod(server);
  Client client(server.config(), quick());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(client.get(resources::pods, "ns", "p").ok()) << i;
  EXPECT_EQ(server.connections_accepted(), 1);
}

TEST(ClientTls, UnusableTlsMaterialIsAConfigError) {
  Config c;
  c.server = "https://127.0.0.1:1";
  c.ca_pem = "not a pem";
  EXPECT_THROW(Client(c, quick()), ConfigError);
  Config half;
  half.server = "https://127.0.0.1:1";
  half.client_cert_pem = vc::testing::make_pki().client.cert_pem;
  EXPECT_THROW(Client(half, quick()), ConfigError);
  Config mismatched;
  mismatched.server = "https://127.0.0.1:1";
  mismatched.client_cert_pem = vc::testing::make_pki().client.cert_pem;
  mismatched.client_key_pem = vc::testing::make_pki().client.key_pem;
  EXPECT_THROW(Client(mismatched, quick()), ConfigError);
  Config scheme;
  scheme.server = "ftp://127.0.0.1:1";
  EXPECT_THROW(Client(scheme, quick()), ConfigError);
}

TEST(ClientTls, BodiesOfManyRecordsArriveWholeBothWays) {
  FakeApiServer server({.tls = true});
  // A 4 MB list answer is some 250 TLS records; the 1 MB create body some 64 on the way out.
  json items = json::array();
  for (int i = 0; i < 2000; ++i) {
    items.push_back({{"metadata", {{"name", "p" + std::to_string(i)}}},
                     {"data", std::string(2000, static_cast<char>('a' + i % 26))}});
  }
  server.handle("GET", "/api/v1/namespaces/ns/pods", [&](const Request&) {
    return Response::json(200, {{"kind", "PodList"}, {"items", items}});
  });
  server.handle("POST", "/api/v1/namespaces/ns/pods",
                [](const Request& r) { return Response::json(201, json::parse(r.body)); });
  Client client(server.config(), quick());
  auto list = client.list(resources::pods, "ns");
  ASSERT_TRUE(list.ok()) << list.error().describe();
  ASSERT_EQ((*list)["items"].size(), 2000u);
  EXPECT_EQ((*list)["items"][1999], items[1999]);
  const json big = {
      {"kind", "Pod"}, {"metadata", {{"name", "big"}}}, {"data", std::string(1 << 20, 'x')}};
  auto created = client.create(resources::pods, "ns", big);
  ASSERT_TRUE(created.ok()) << created.error().describe();
  EXPECT_EQ((*created)["data"].get<std::string>().size(), std::size_t{1} << 20);
  EXPECT_EQ(server.connections_accepted(), 1);
}

TEST(ClientTls, StalledResponseHitsTheDeadline) {
  FakeApiServer server({.tls = true});
  server.handle("GET", "/api/v1/namespaces/ns/pods/p", stalled);
  Client client(server.config(), quick(300ms));
  const auto t0 = Clock::now();
  auto r = client.get(resources::pods, "ns", "p");
  ASSERT_TRUE(r.is(ErrorKind::Timeout)) << (r.ok() ? "ok" : r.error().describe());
  EXPECT_GE(Clock::now() - t0, 290ms);
  EXPECT_LT(Clock::now() - t0, 1300ms);
}

TEST(ClientTls, FenceCancelsACallInFlightAtOnce) {
  FakeApiServer server({.tls = true});
  server.handle("POST", "/api/v1/namespaces/ns/pods", stalled);
  Client client(server.config(), quick(20s));
  auto call = std::async(std::launch::async, [&] {
    return client.create(resources::pods, "ns", {{"metadata", {{"name", "p"}}}});
  });
  ASSERT_TRUE(server.wait_for_requests(1, 5s)) << server.describe_requests();
  client.fence();
  ASSERT_EQ(call.wait_for(2s), std::future_status::ready) << "the fenced call did not return";
  auto r = call.get();
  EXPECT_TRUE(r.is(ErrorKind::Cancelled)) << (r.ok() ? "ok" : r.error().describe());
}

TEST(ClientTls, AConnectionTheServerDroppedIsReplacedForAGet) {
  FakeApiServer server({.tls = true});
  serve_pod(server);
  Client client(server.config(), quick());
  ASSERT_TRUE(client.get(resources::pods, "ns", "p").ok());
  server.drop_connections();  // the pooled connection now holds a close_notify or a reset
  auto r = client.get(resources::pods, "ns", "p");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(server.connections_accepted(), 2);
}

TEST(ClientTls, ResetMidBodyIsATransportError) {
  FakeApiServer server({.tls = true});
  server.handle("POST", "/api/v1/namespaces/ns/pods", [](const Request&) {
    Response r = Response::json(201, {{"kind", "Pod"}, {"data", std::string(100000, 'x')}});
    r.reset_after_body_bytes = 20000;
    return r;
  });
  Client client(server.config(), quick());
  auto r = client.create(resources::pods, "ns", {{"metadata", {{"name", "p"}}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Transport) << r.error().describe();
}

}  // namespace
}  // namespace vc::kube
