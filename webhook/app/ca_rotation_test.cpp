#include "webhook/app/ca_rotation.h"

#include <atomic>
#include <mutex>

#include <gtest/gtest.h>

#include "common/go/base64.h"
#include "common/testing/pki.h"
#include "common/testing/temp_dir.h"
#include "webhook/app/app_test_util.h"
#include "webhook/server/certificate_reloader.h"

namespace vc::webhook::app {
namespace {

using namespace std::chrono_literals;
using test::json;
using test::Request;
using test::Response;
using test::webhook_configuration;

const std::string kMutName = "volcano-admission-service-jobs-mutate";

// The API server's copy of one MutatingWebhookConfiguration: GET returns it, PUT replaces it
// (or fails while fail_puts is set).
class CaRotationTest : public ::testing::Test {
 protected:
  CaRotationTest() {
    set_bundle(old_.ca.cert_pem);
    server_.handle("GET", test::kMutatingPath + kMutName, [this](const Request&) {
      std::lock_guard lock(mu_);
      return Response::json(200, stored_);
    });
    server_.handle("PUT", test::kMutatingPath + kMutName, [this](const Request& r) {
      if (fail_puts_) return Response::error(500, "InternalError", "etcd is down");
      std::lock_guard lock(mu_);
      stored_ = r.json();
      ++writes_;
      return Response::json(200, stored_);
    });
  }

  void set_bundle(const std::string& pem) {
    std::lock_guard lock(mu_);
    stored_ = webhook_configuration("MutatingWebhookConfiguration", kMutName,
                                    json::array({go::base64_encode(pem)}));
  }
  std::string bundle() {
    std::lock_guard lock(mu_);
    return *go::base64_decode(
        stored_["webhooks"][0]["clientConfig"]["caBundle"].get<std::string>());
  }
  int writes() {
    std::lock_guard lock(mu_);
    return writes_;
  }

  CaRotationOptions fast() {
    return {
        .poll_interval = 10ms, .settle = 0ms, .sync = {.poll_interval = 10ms, .wait_timeout = 1s}};
  }

  vc::testing::Pki old_ = vc::testing::make_pki();
  vc::testing::Pki new_ = vc::testing::make_pki();
  vc::testing::TempDir dir_;
  vc::testing::FakeApiServer server_;
  kube::Client client_{server_.config()};
  std::mutex mu_;
  json stored_;
  int writes_ = 0;
  std::atomic<bool> fail_puts_{false};
};

TEST_F(CaRotationTest, NewCaReachesTheBundleBeforeItsPairIsServed) {
  const std::string ca_file = dir_.write("ca.crt", old_.ca.cert_pem);
  dir_.write("tls.crt", old_.server.cert_pem);
  dir_.write("tls.key", old_.server.key_pem);
  auto trusted = std::make_shared<server::TrustedCas>();
  server::CertificateReloader reloader((dir_.path() / "tls.crt").string(),
                                       (dir_.path() / "tls.key").string(), trusted);
  reloader.load();

  // What the serving side saw when the rotation said the bundle was current.
  std::string bundle_when_trusted;
  CaRotation rotation(
      client_, ca_file, {{"/jobs/mutate", true}}, trusted,
      [&] {
        bundle_when_trusted = bundle();
        reloader.poll();
      },
      fast());
  rotation.registered(old_.ca.cert_pem);
  EXPECT_EQ(rotation.check(), CaRotation::Outcome::Unchanged);

  // The kubelet swaps the Secret: new pair and new CA file together.
  dir_.write("tls.crt", new_.server.cert_pem);
  dir_.write("tls.key", new_.server.key_pem);
  dir_.write("ca.crt", new_.ca.cert_pem);
  // The reloader polls first: the pair waits, the old one is still served.
  EXPECT_FALSE(reloader.poll());
  EXPECT_EQ(reloader.generation(), 1u);

  EXPECT_EQ(rotation.check(), CaRotation::Outcome::Registered);
  // The bundle holds the new CA and keeps the old one; the pair was swapped only then.
  EXPECT_EQ(bundle(), new_.ca.cert_pem + old_.ca.cert_pem);
  EXPECT_EQ(bundle_when_trusted, bundle());
  EXPECT_EQ(reloader.generation(), 2u);
  EXPECT_EQ(writes(), 1);
  EXPECT_EQ(rotation.check(), CaRotation::Outcome::Unchanged);
}

TEST_F(CaRotationTest, FailedWriteKeepsTheOldPairAndIsRetried) {
  const std::string ca_file = dir_.write("ca.crt", old_.ca.cert_pem);
  auto trusted = std::make_shared<server::TrustedCas>();
  int trusted_calls = 0;
  CaRotation rotation(
      client_, ca_file, {{"/jobs/mutate", true}}, trusted, [&] { ++trusted_calls; }, fast());
  rotation.registered(old_.ca.cert_pem);

  dir_.write("ca.crt", new_.ca.cert_pem);
  fail_puts_ = true;
  EXPECT_EQ(rotation.check(), CaRotation::Outcome::Failed);
  EXPECT_EQ(trusted_calls, 0);
  EXPECT_FALSE(trusted->check(new_.server.cert_pem).ok());  // the new pair stays held

  fail_puts_ = false;
  EXPECT_EQ(rotation.check(), CaRotation::Outcome::Registered);
  EXPECT_EQ(trusted_calls, 1);
  EXPECT_TRUE(trusted->check(new_.server.cert_pem).ok());
  EXPECT_TRUE(trusted->check(old_.server.cert_pem).ok() == false);  // the file names only the new
  EXPECT_EQ(bundle(), new_.ca.cert_pem + old_.ca.cert_pem);
}

TEST_F(CaRotationTest, BackgroundPollingRegistersARotation) {
  const std::string ca_file = dir_.write("ca.crt", old_.ca.cert_pem);
  auto trusted = std::make_shared<server::TrustedCas>();
  std::atomic<int> trusted_calls{0};
  CaRotation rotation(
      client_, ca_file, {{"/jobs/mutate", true}}, trusted, [&] { ++trusted_calls; }, fast());
  rotation.start(old_.ca.cert_pem);
  EXPECT_TRUE(trusted->check(old_.server.cert_pem).ok());
  dir_.write("ca.crt", new_.ca.cert_pem);
  EXPECT_TRUE(vc::testing::eventually([&] { return trusted_calls.load() == 1; }, 10s));
  rotation.stop();
  EXPECT_EQ(bundle(), new_.ca.cert_pem + old_.ca.cert_pem);
}

}  // namespace
}  // namespace vc::webhook::app
