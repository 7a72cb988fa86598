// TLS versions, cipher suites and certificate rotation, over real connections on 127.0.0.1.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "webhook/server/admission_server.h"
#include "webhook/server/server_test_util.h"

namespace vc::webhook::server {
namespace {

using test::review_body;
using test::RunningServer;
using test::TlsClient;
using test::TlsClientOptions;

std::vector<Endpoint> allow_endpoint() {
  return {{"/test/allow", false, [](auto&, auto&, auto&) { return AdmissionResponse::allow(); }}};
}

TlsClientOptions tls12(const RunningServer& s, std::string ciphers) {
  TlsClientOptions o = s.client_options();
  o.max_version = TLS1_2_VERSION;
  o.tls12_ciphers = std::move(ciphers);
  return o;
}

// Replaces a file in one step, as Kubernetes' secret volumes do with their symlink swap.
void replace_file(const vc::testing::TempDir& dir, const std::string& name,
                  const std::string& content) {
  const std::string tmp = dir.write(name + ".tmp", content);
  std::filesystem::rename(tmp, dir.path() / name);
}

TEST(AdmissionServerTls, Tls12WithAnAllowedCipherWorks) {
  RunningServer server(allow_endpoint());
  for (const char* cipher : {"ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384",
                             "ECDHE-ECDSA-CHACHA20-POLY1305"}) {
    auto client = TlsClient::connect(server.port(), tls12(server, cipher));
    ASSERT_TRUE(client.ok()) << cipher << ": " << client.error();
    EXPECT_EQ((*client)->version(), "TLSv1.2");
    EXPECT_EQ((*client)->cipher(), cipher);
    auto reply = (*client)->post("/test/allow", review_body("u"));
    ASSERT_TRUE(reply.ok()) << reply.error();
    EXPECT_EQ(reply->status, 200);
  }
}

TEST(AdmissionServerTls, Tls12WithANonAllowedCipherIsRefused) {
  RunningServer server(allow_endpoint());
  for (const char* cipher : {"AES128-SHA", "ECDHE-ECDSA-AES128-SHA", "AES128-GCM-SHA256"}) {
    auto client = TlsClient::connect(server.port(), tls12(server, cipher));
    EXPECT_FALSE(client.ok()) << cipher << " was accepted";
  }
}

TEST(AdmissionServerTls, Tls13Works) {
  RunningServer server(allow_endpoint());
  TlsClientOptions o = server.client_options();
  o.min_version = TLS1_3_VERSION;
  auto client = TlsClient::connect(server.port(), o);
  ASSERT_TRUE(client.ok()) << client.error();
  EXPECT_EQ((*client)->version(), "TLSv1.3");
  auto reply = (*client)->post("/test/allow", review_body("u13"));
  ASSERT_TRUE(reply.ok()) << reply.error();
  EXPECT_EQ(reply->status, 200);
}

TEST(AdmissionServerTls, Tls13PrefersAes128GcmLikeGoAndServesEverySuiteAClientLimitsItTo) {
  RunningServer server(allow_endpoint());
  TlsClientOptions o = server.client_options();
  o.min_version = TLS1_3_VERSION;
  // OpenSSL's client offers AES-256-GCM first; the server's order decides, as Go's does.
  o.tls13_suites = "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256";
  auto preferred = TlsClient::connect(server.port(), o);
  ASSERT_TRUE(preferred.ok()) << preferred.error();
  EXPECT_EQ((*preferred)->cipher(), "TLS_AES_128_GCM_SHA256");
  for (const char* only :
       {"TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_256_GCM_SHA384"}) {
    o.tls13_suites = only;
    auto client = TlsClient::connect(server.port(), o);
    ASSERT_TRUE(client.ok()) << only << ": " << client.error();
    EXPECT_EQ((*client)->cipher(), only);
    auto reply = (*client)->post("/test/allow", review_body("u13"));
    ASSERT_TRUE(reply.ok()) << only << ": " << reply.error();
    EXPECT_EQ(reply->status, 200) << only;
  }
}

TEST(AdmissionServerTls, RsaCertificateServesEcdheRsaWithCaAppended) {
  RunningServer server(allow_endpoint(), {.cert_poll_interval = std::chrono::milliseconds(0)});
  const auto rsa = test::issue_server_cert(server.pki.ca, /*rsa=*/true);
  // Volcano's secret holds tls.crt, which may carry the CA after the leaf.
  server.dir.write("tls.key", rsa.key_pem);
  server.dir.write("tls.crt", rsa.cert_pem + server.pki.ca.cert_pem);
  ASSERT_TRUE(server.server->reload_certificate());
  auto client = TlsClient::connect(server.port(), tls12(server, "ECDHE-RSA-AES256-GCM-SHA384"));
  ASSERT_TRUE(client.ok()) << client.error();
  EXPECT_EQ((*client)->cipher(), "ECDHE-RSA-AES256-GCM-SHA384");
  EXPECT_EQ((*client)->peer_serial(), test::serial_of(rsa.cert_pem));
}

TEST(AdmissionServerTls, MismatchedPairIsIgnoredAndTheOldCertificateKeepsServing) {
  RunningServer server(allow_endpoint(), {.cert_poll_interval = std::chrono::milliseconds(0)});
  const std::string old_serial = test::serial_of(server.pki.server.cert_pem);
  const auto next = test::issue_server_cert(server.pki.ca);

  server.dir.write("tls.crt", next.cert_pem);  // the key is still the old one
  EXPECT_FALSE(server.server->reload_certificate());
  EXPECT_EQ(server.server->certificate_generation(), 1u);
  EXPECT_EQ(server.connect()->peer_serial(), old_serial);

  server.dir.write("tls.key", next.key_pem);
  EXPECT_TRUE(server.server->reload_certificate());
  EXPECT_EQ(server.server->certificate_generation(), 2u);
  EXPECT_EQ(server.connect()->peer_serial(), test::serial_of(next.cert_pem));
}

TEST(AdmissionServerTls, RotatedCertificateIsServedWithoutAFailedRequest) {
  RunningServer server(allow_endpoint(), {.cert_poll_interval = std::chrono::milliseconds(50)});
  const std::string old_serial = test::serial_of(server.pki.server.cert_pem);
  const auto next = test::issue_server_cert(server.pki.ca);
  const std::string new_serial = test::serial_of(next.cert_pem);
  ASSERT_NE(old_serial, new_serial);

  auto kept = server.connect();  // a connection from before the swap
  ASSERT_EQ(kept->peer_serial(), old_serial);

  // A client opening a new connection for every request, all through the swap.
  std::atomic<bool> done{false};
  std::atomic<int> requests{0};
  std::atomic<bool> saw_new{false};
  std::vector<std::string> failures;
  std::thread loop([&] {
    while (!done) {
      auto client = TlsClient::connect(server.port(), server.client_options());
      if (!client) {
        failures.push_back("connect: " + client.error());
        continue;
      }
      auto reply = (*client)->post("/test/allow", review_body("loop"));
      if (!reply || reply->status != 200) {
        failures.push_back(reply ? "status " + std::to_string(reply->status) : reply.error());
        continue;
      }
      if ((*client)->peer_serial() == new_serial) saw_new = true;
      ++requests;
    }
  });
  ASSERT_TRUE(test::wait_until([&] { return requests > 3; }));
  // Key first, then certificate: in between the pair on disk is mismatched and must be ignored.
  replace_file(server.dir, "tls.key", next.key_pem);
  replace_file(server.dir, "tls.crt", next.cert_pem);
  const bool reloaded =
      test::wait_until([&] { return server.server->certificate_generation() == 2; });
  const bool seen = test::wait_until([&] { return saw_new.load(); });
  const int before_stop = requests;
  ASSERT_TRUE(test::wait_until([&] { return requests > before_stop + 3; }));
  done = true;
  loop.join();

  EXPECT_TRUE(reloaded) << "generation " << server.server->certificate_generation();
  EXPECT_TRUE(seen) << "no connection saw the new certificate";
  EXPECT_TRUE(failures.empty()) << failures.size() << " failures, first: " << failures.front();
  EXPECT_EQ(server.connect()->peer_serial(), new_serial);
  // The connection opened before the swap keeps working on its own session.
  auto reply = kept->post("/test/allow", review_body("kept"));
  ASSERT_TRUE(reply.ok()) << reply.error();
  EXPECT_EQ(reply->status, 200);
}

}  // namespace
}  // namespace vc::webhook::server
