#include "webhook/app/ca_bundle_sync.h"

#include <atomic>
#include <thread>

#include <gtest/gtest.h>

#include "webhook/app/app_test_util.h"
#include "webhook/server/review_codec.h"

namespace vc::webhook::app {
namespace {

using namespace std::chrono_literals;
using test::json;
using test::Request;
using test::Response;
using test::webhook_configuration;

const std::string kCa = "-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n";
const std::string kMutName = "volcano-admission-service-jobs-mutate";
const std::string kValName = "volcano-admission-service-jobs-validate";

class CaBundleSyncTest : public ::testing::Test {
 protected:
  CaBundleSyncOptions fast() { return {.poll_interval = 10ms, .wait_timeout = 5s}; }

  std::vector<std::string> verbs() {
    std::vector<std::string> out;
    for (const auto& r : server.requests()) out.push_back(r.method + " " + r.path);
    return out;
  }

  vc::testing::FakeApiServer server;
  kube::Client client{server.config()};
};

TEST_F(CaBundleSyncTest, WaitsWhileNotFoundThenUpdates) {
  std::atomic<int> gets{0};
  server.handle("GET", test::kMutatingPath + kMutName, [&](const Request&) {
    if (++gets < 3) return Response::error(404, "NotFound", "not found");
    return Response::json(200, webhook_configuration("MutatingWebhookConfiguration", kMutName,
                                                     json::array({nullptr})));
  });
  json written;
  server.handle("PUT", test::kMutatingPath + kMutName, [&](const Request& r) {
    written = r.json();
    return Response::json(200, written);
  });
  auto r = sync_ca_bundle(client, "/jobs/mutate", true, kCa, fast());
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(*r, CaBundleOutcome::Updated);
  EXPECT_EQ(gets.load(), 3);
  EXPECT_EQ(written["webhooks"][0]["clientConfig"]["caBundle"], server::base64_encode(kCa));
  EXPECT_EQ(written["metadata"]["resourceVersion"], "7");
}

TEST_F(CaBundleSyncTest, CurrentBundleIsLeftAlone) {
  server.handle("GET", test::kValidatingPath + kValName, [&](const Request&) {
    return Response::json(200, webhook_configuration("ValidatingWebhookConfiguration", kValName,
                                                     json::array({server::base64_encode(kCa)})));
  });
  auto r = sync_ca_bundle(client, "/jobs/validate", false, kCa, fast());
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(*r, CaBundleOutcome::Unchanged);
  EXPECT_EQ(verbs(),
            std::vector<std::string>{"GET " + std::string(test::kValidatingPath) + kValName})
      << server.describe_requests();
}

TEST_F(CaBundleSyncTest, ConflictReadsAgainAndRetries) {
  std::atomic<int> gets{0};
  server.handle("GET", test::kValidatingPath + kValName, [&](const Request&) {
    ++gets;
    return Response::json(
        200, webhook_configuration("ValidatingWebhookConfiguration", kValName,
                                   json::array({"b2xk"}), std::to_string(gets.load())));
  });
  std::atomic<int> puts{0};
  std::string last_rv;
  server.handle("PUT", test::kValidatingPath + kValName, [&](const Request& r) {
    last_rv = r.json()["metadata"]["resourceVersion"];
    if (++puts == 1) {
      return Response::error(409, "Conflict",
                             "the object has been modified; please apply your "
                             "changes to the latest version and try again");
    }
    return Response::json(200, r.json());
  });
  auto r = sync_ca_bundle(client, "/jobs/validate", false, kCa, fast());
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(*r, CaBundleOutcome::Updated);
  EXPECT_EQ(gets.load(), 2);
  EXPECT_EQ(puts.load(), 2);
  EXPECT_EQ(last_rv, "2");  // the second write is based on the second read
}

TEST_F(CaBundleSyncTest, EndlessConflictsGiveVolcanosUpdateError) {
  server.handle("GET", test::kMutatingPath + kMutName, [&](const Request&) {
    return Response::json(200, webhook_configuration("MutatingWebhookConfiguration", kMutName,
                                                     json::array({nullptr})));
  });
  server.handle("PUT", test::kMutatingPath + kMutName,
                [&](const Request&) { return Response::error(409, "Conflict", "modified"); });
  auto options = fast();
  options.max_conflicts = 2;
  auto r = sync_ca_bundle(client, "/jobs/mutate", true, kCa, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "failed to update mutating admission webhooks " + kMutName + " modified");
  EXPECT_EQ(verbs().size(), 6u) << server.describe_requests();  // 3 x (GET, PUT)
}

TEST_F(CaBundleSyncTest, ForbiddenGetAbortsAtOnceWithVolcanosMessage) {
  const std::string message = "mutatingwebhookconfigurations.admissionregistration.k8s.io \"" +
                              kMutName + "\" is forbidden: User \"x\" cannot get resource";
  server.handle("GET", test::kMutatingPath + kMutName,
                [&](const Request&) { return Response::error(403, "Forbidden", message); });
  auto r = sync_ca_bundle(client, "/jobs/mutate", true, kCa, fast());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "failed to get mutating webhook failed to get mutating webhook " + message);
  EXPECT_EQ(server.requests().size(), 1u) << server.describe_requests();
}

TEST_F(CaBundleSyncTest, ForbiddenUpdateIsReported) {
  server.handle("GET", test::kValidatingPath + kValName, [&](const Request&) {
    return Response::json(200, webhook_configuration("ValidatingWebhookConfiguration", kValName,
                                                     json::array({nullptr})));
  });
  server.handle("PUT", test::kValidatingPath + kValName,
                [&](const Request&) { return Response::error(403, "Forbidden", "no update"); });
  auto r = sync_ca_bundle(client, "/jobs/validate", false, kCa, fast());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "failed to update validating admission webhooks " + kValName + " no update");
}

TEST_F(CaBundleSyncTest, ConfigurationThatNeverAppearsTimesOut) {
  auto options = fast();
  options.wait_timeout = 100ms;
  const auto started = std::chrono::steady_clock::now();
  auto r = sync_ca_bundle(client, "/jobs/validate", false, kCa, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "failed to get validating webhook context deadline exceeded");
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  EXPECT_GE(server.requests().size(), 2u) << server.describe_requests();
}

TEST_F(CaBundleSyncTest, StopEndsTheWaitPromptly) {
  std::stop_source stop;
  auto options = fast();
  options.poll_interval = 10s;
  options.wait_timeout = 60s;
  std::jthread stopper([&] {
    server.wait_for_requests(1, 5s);
    stop.request_stop();
  });
  const auto started = std::chrono::steady_clock::now();
  auto r = sync_ca_bundle(client, "/queues/mutate", true, kCa, options, stop.get_token());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("stopped while waiting for MutatingWebhookConfiguration "
                           "volcano-admission-service-queues-mutate"),
            std::string::npos)
      << r.error();
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
}

}  // namespace
}  // namespace vc::webhook::app
