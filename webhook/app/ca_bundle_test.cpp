#include "webhook/app/ca_bundle.h"

#include <gtest/gtest.h>

#include "webhook/app/app_test_util.h"
#include "webhook/server/review_codec.h"

namespace vc::webhook::app {
namespace {

using test::json;
using test::webhook_configuration;

const std::string kCa = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

TEST(PlanCaBundle, NothingToDoWhenEveryWebhookHasTheCa) {
  const std::string b64 = server::base64_encode(kCa);
  EXPECT_FALSE(plan_ca_bundle(
      webhook_configuration("MutatingWebhookConfiguration", "c", json::array({b64, b64})), kCa));
}

TEST(PlanCaBundle, FillsMissingAndReplacesDifferentBundlesOnly) {
  const std::string b64 = server::base64_encode(kCa);
  const json config = webhook_configuration("ValidatingWebhookConfiguration", "c",
                                            json::array({nullptr, b64, "b2xk"}));
  auto plan = plan_ca_bundle(config, kCa);
  ASSERT_TRUE(plan);
  for (const auto& hook : (*plan)["webhooks"]) EXPECT_EQ(hook["clientConfig"]["caBundle"], b64);
  // Everything else is kept, the resourceVersion included (optimistic update).
  EXPECT_EQ((*plan)["metadata"]["resourceVersion"], "7");
  EXPECT_EQ((*plan)["webhooks"][0]["clientConfig"]["url"], "https://x/p");
  EXPECT_EQ((*plan)["webhooks"][0]["name"], "hook.volcano.sh");
  json expected = config;
  expected["webhooks"][0]["clientConfig"]["caBundle"] = b64;
  expected["webhooks"][2]["clientConfig"]["caBundle"] = b64;
  EXPECT_EQ(*plan, expected);
}

TEST(PlanCaBundle, CreatesAMissingClientConfig) {
  json config = {{"metadata", {{"name", "c"}}}, {"webhooks", json::array({{{"name", "a"}}})}};
  auto plan = plan_ca_bundle(config, kCa);
  ASSERT_TRUE(plan);
  EXPECT_EQ((*plan)["webhooks"][0]["clientConfig"]["caBundle"], server::base64_encode(kCa));
}

TEST(PlanCaBundle, ObjectWithoutWebhooksNeedsNothing) {
  EXPECT_FALSE(plan_ca_bundle(json{{"metadata", {{"name", "c"}}}}, kCa));
  EXPECT_FALSE(plan_ca_bundle(json{{"webhooks", json::array()}}, kCa));
  EXPECT_FALSE(plan_ca_bundle(json{{"webhooks", nullptr}}, kCa));
}

TEST(PlanCaBundle, ComparesBytesNotJustPresence) {
  // A bundle of other bytes, even a prefix of ours, is replaced.
  const json config = webhook_configuration("MutatingWebhookConfiguration", "c",
                                            json::array({server::base64_encode(kCa.substr(1))}));
  EXPECT_TRUE(plan_ca_bundle(config, kCa));
  EXPECT_TRUE(plan_ca_bundle(
      webhook_configuration("MutatingWebhookConfiguration", "c", json::array({42})), kCa));
}

}  // namespace
}  // namespace vc::webhook::app
