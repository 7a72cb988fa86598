#include "webhook/server/trusted_cas.h"

#include <gtest/gtest.h>

#include "common/testing/pki.h"
#include "webhook/server/server_test_util.h"

namespace vc::webhook::server {
namespace {

TEST(TrustedCas, WithoutASetEveryChainPasses) {
  TrustedCas trusted;
  EXPECT_FALSE(trusted.active());
  EXPECT_TRUE(trusted.check("not even PEM").ok());
}

TEST(TrustedCas, PassesOnlyChainsOfTheSetCas) {
  const auto old_pki = vc::testing::make_pki();
  const auto new_pki = vc::testing::make_pki();
  TrustedCas trusted;
  ASSERT_TRUE(trusted.set(old_pki.ca.cert_pem).ok());
  EXPECT_TRUE(trusted.active());
  EXPECT_TRUE(trusted.check(old_pki.server.cert_pem).ok());
  const auto held = trusted.check(new_pki.server.cert_pem);
  ASSERT_FALSE(held.ok());
  EXPECT_NE(held.error().find("issuer not in the registered caBundle"), std::string::npos)
      << held.error();
  // Both CAs, as the CA file holds them during a rotation.
  ASSERT_TRUE(trusted.set(new_pki.ca.cert_pem + old_pki.ca.cert_pem).ok());
  EXPECT_TRUE(trusted.check(old_pki.server.cert_pem).ok());
  EXPECT_TRUE(trusted.check(new_pki.server.cert_pem).ok());
}

TEST(TrustedCas, AFileWithoutCertificatesKeepsThePreviousSet) {
  const auto pki = vc::testing::make_pki();
  const auto other = vc::testing::make_pki();
  TrustedCas trusted;
  ASSERT_TRUE(trusted.set(pki.ca.cert_pem).ok());
  EXPECT_FALSE(trusted.set("garbage").ok());
  EXPECT_TRUE(trusted.check(pki.server.cert_pem).ok());
  EXPECT_FALSE(trusted.check(other.server.cert_pem).ok());
  EXPECT_FALSE(trusted.check("").ok());
}

}  // namespace
}  // namespace vc::webhook::server
