#include "webhook/server/certificate_reloader.h"

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "common/testing/pki.h"
#include "common/testing/temp_dir.h"
#include "webhook/server/server_test_util.h"

namespace vc::webhook::server {
namespace {

using test::metric_value;

double reloads(const char* result) {
  return metric_value(std::string("vc_webhook_certificate_reloads_total{result=\"") + result +
                      "\"}");
}

class CertificateReloaderTest : public ::testing::Test {
 protected:
  void write_pair(const vc::testing::CertKey& pair) {
    dir_.write("tls.crt", pair.cert_pem);
    dir_.write("tls.key", pair.key_pem);
  }
  std::string cert_path() const { return (dir_.path() / "tls.crt").string(); }
  std::string key_path() const { return (dir_.path() / "tls.key").string(); }

  vc::testing::TempDir dir_;
  vc::testing::Pki pki_ = vc::testing::make_pki();
};

TEST_F(CertificateReloaderTest, LoadInstallsTheFirstPair) {
  write_pair(pki_.server);
  CertificateReloader reloader(cert_path(), key_path());
  EXPECT_EQ(reloader.current(), nullptr);
  reloader.load();
  EXPECT_NE(reloader.current(), nullptr);
  EXPECT_EQ(reloader.generation(), 1u);
}

TEST_F(CertificateReloaderTest, LoadFailureNamesTheFileAndReason) {
  CertificateReloader reloader(cert_path(), key_path());
  try {
    reloader.load();
    FAIL() << "missing files accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open " + cert_path()), std::string::npos)
        << e.what();
  }
}

TEST_F(CertificateReloaderTest, UnchangedFilesAreNotReloaded) {
  write_pair(pki_.server);
  CertificateReloader reloader(cert_path(), key_path());
  reloader.load();
  const auto first = reloader.current();
  write_pair(pki_.server);  // same content, new modification time
  EXPECT_FALSE(reloader.poll());
  EXPECT_EQ(reloader.current(), first);
  EXPECT_EQ(reloader.generation(), 1u);
}

TEST_F(CertificateReloaderTest, NewPairReplacesTheContext) {
  write_pair(pki_.server);
  CertificateReloader reloader(cert_path(), key_path());
  reloader.load();
  const auto first = reloader.current();
  const double successes = reloads("success");
  write_pair(test::issue_server_cert(pki_.ca));
  EXPECT_TRUE(reloader.poll());
  EXPECT_NE(reloader.current(), first);
  EXPECT_EQ(reloader.generation(), 2u);
  EXPECT_EQ(reloads("success"), successes + 1);
}

TEST_F(CertificateReloaderTest, HalfWrittenPairIsIgnoredUntilComplete) {
  write_pair(pki_.server);
  CertificateReloader reloader(cert_path(), key_path());
  reloader.load();
  const auto first = reloader.current();
  const double failures = reloads("failure");
  const auto next = test::issue_server_cert(pki_.ca);

  // The writer has written half the certificate.
  dir_.write("tls.crt", next.cert_pem.substr(0, next.cert_pem.size() / 2));
  EXPECT_FALSE(reloader.poll());
  EXPECT_EQ(reloader.current(), first);
  // The certificate is complete but the key is still the old one: a mismatched pair.
  dir_.write("tls.crt", next.cert_pem);
  EXPECT_FALSE(reloader.poll());
  EXPECT_EQ(reloader.current(), first);
  EXPECT_FALSE(reloader.poll());  // unchanged: not tried, logged or counted again
  EXPECT_EQ(reloads("failure"), failures + 2);
  // The key arrives.
  dir_.write("tls.key", next.key_pem);
  EXPECT_TRUE(reloader.poll());
  EXPECT_NE(reloader.current(), first);
  EXPECT_EQ(reloader.generation(), 2u);
}

TEST_F(CertificateReloaderTest, MissingFileKeepsTheCurrentPair) {
  write_pair(pki_.server);
  CertificateReloader reloader(cert_path(), key_path());
  reloader.load();
  const auto first = reloader.current();
  std::filesystem::remove(key_path());
  EXPECT_FALSE(reloader.poll());
  EXPECT_FALSE(reloader.poll());
  EXPECT_EQ(reloader.current(), first);
  write_pair(test::issue_server_cert(pki_.ca));
  EXPECT_TRUE(reloader.poll());
}

TEST(MakeServerContext, AcceptsAChainWithTheCaAppended) {
  const auto pki = vc::testing::make_pki();
  auto built = make_server_context(pki.server.cert_pem + pki.ca.cert_pem, pki.server.key_pem);
  ASSERT_TRUE(built.ok()) << built.error();
  EXPECT_EQ(built->serial, test::serial_of(pki.server.cert_pem));
  EXPECT_EQ(built->subject, "/CN=127.0.0.1");
  EXPECT_FALSE(built->not_after.empty());
}

TEST(MakeServerContext, ErrorsNameThePart) {
  const auto pki = vc::testing::make_pki();
  auto garbage = make_server_context("not a certificate", pki.server.key_pem);
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().rfind("certificate: ", 0), 0u) << garbage.error();

  const std::string truncated_ca = pki.ca.cert_pem.substr(0, pki.ca.cert_pem.size() - 40);
  auto chain = make_server_context(pki.server.cert_pem + truncated_ca, pki.server.key_pem);
  ASSERT_FALSE(chain.ok());
  EXPECT_EQ(chain.error().rfind("certificate chain: ", 0), 0u) << chain.error();

  auto no_key = make_server_context(pki.server.cert_pem, "");
  ASSERT_FALSE(no_key.ok());
  EXPECT_EQ(no_key.error().rfind("private key: ", 0), 0u) << no_key.error();

  auto mismatch = make_server_context(pki.server.cert_pem, pki.client.key_pem);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(mismatch.error(), "private key does not match the certificate");
}

TEST_F(CertificateReloaderTest, PairOfANewCaIsHeldBackUntilTheCaIsTrusted) {
  write_pair(pki_.server);
  auto trusted = std::make_shared<TrustedCas>();
  ASSERT_TRUE(trusted->set(pki_.ca.cert_pem).ok());
  CertificateReloader reloader(cert_path(), key_path(), trusted);
  reloader.load();
  const auto first = reloader.current();
  const double failures = reloads("failure");

  // A rotation: the files hold a pair of a CA the caBundle does not hold yet.
  const auto next = vc::testing::make_pki();
  write_pair(next.server);
  EXPECT_FALSE(reloader.poll());
  EXPECT_FALSE(reloader.poll());  // and again at every poll, without counting a failure
  EXPECT_EQ(reloader.current(), first);
  EXPECT_EQ(reloader.generation(), 1u);
  EXPECT_EQ(reloads("failure"), failures);

  // The caBundle update is confirmed: the next poll swaps the pair in.
  ASSERT_TRUE(trusted->set(next.ca.cert_pem + pki_.ca.cert_pem).ok());
  EXPECT_TRUE(reloader.poll());
  EXPECT_NE(reloader.current(), first);
  EXPECT_EQ(reloader.generation(), 2u);
}

TEST_F(CertificateReloaderTest, PairOfATrustedCaIsNotHeld) {
  write_pair(pki_.server);
  auto trusted = std::make_shared<TrustedCas>();
  ASSERT_TRUE(trusted->set(pki_.ca.cert_pem).ok());
  CertificateReloader reloader(cert_path(), key_path(), trusted);
  reloader.load();
  write_pair(test::issue_server_cert(pki_.ca));  // a renewal under the same CA
  EXPECT_TRUE(reloader.poll());
  EXPECT_EQ(reloader.generation(), 2u);
}

TEST_F(CertificateReloaderTest, FirstLoadIsNeverHeld) {
  const auto other = vc::testing::make_pki();
  write_pair(other.server);
  auto trusted = std::make_shared<TrustedCas>();
  ASSERT_TRUE(trusted->set(pki_.ca.cert_pem).ok());
  CertificateReloader reloader(cert_path(), key_path(), trusted);
  reloader.load();  // there is no other pair to serve
  EXPECT_NE(reloader.current(), nullptr);
}

}  // namespace
}  // namespace vc::webhook::server
