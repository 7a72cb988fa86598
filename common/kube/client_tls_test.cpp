// TLS: server verification against the cluster CA, host name checks, client certificates.

#include <gtest/gtest.h>

#include "common/kube/client.h"
#include "common/testing/fake_apiserver.h"

namespace vc::kube {
namespace {

using vc::testing::FakeApiServer;
using vc::testing::FakeApiServerOptions;
using vc::testing::Request;
using vc::testing::Response;

ClientOptions quick() {
  ClientOptions o;
  o.qps = 0;
  o.max_retries = 0;
  o.request_timeout = std::chrono::seconds(5);
  return o;
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

}  // namespace
}  // namespace vc::kube
