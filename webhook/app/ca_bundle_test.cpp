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

// Certificates as PEM blocks; the bodies only need to differ (nothing here parses DER).
std::string pem(const std::string& body) {
  return "-----BEGIN CERTIFICATE-----\n" + body + "\n-----END CERTIFICATE-----\n";
}
const std::string kOld = pem("T0xEQ0E=");
const std::string kOlder = pem("T0xERVJDQQ==");
const std::string kNew = pem("TkVXQ0E=");

TEST(PemCertificateBodies, ListsCertificateBlocksOnlyWithoutWhitespace) {
  const std::string text = "junk\n" + pem("QUJD\r\nREVG") +
                           "-----BEGIN PRIVATE KEY-----\nS0VZ\n-----END PRIVATE KEY-----\n" + kNew +
                           "-----BEGIN CERTIFICATE-----\nVU5URVJNSU5BVEVE";
  EXPECT_EQ(pem_certificate_bodies(text), (std::vector<std::string>{"QUJDREVG", "TkVXQ0E="}));
  EXPECT_TRUE(pem_certificate_bodies("").empty());
}

TEST(MergeCaBundle, NewCaFirstThenThePreviousOne) {
  EXPECT_EQ(merge_ca_bundle(kOld, kNew, 1), kNew + kOld);
}

TEST(MergeCaBundle, KeepsAtMostKeepPreviousEarlierCas) {
  // After a second rotation the oldest CA goes: the bundle holds two CAs.
  EXPECT_EQ(merge_ca_bundle(kOld + kOlder, kNew, 1), kNew + kOld);
  EXPECT_EQ(merge_ca_bundle(kOld + kOlder, kNew, 2), kNew + kOld + kOlder);
}

TEST(MergeCaBundle, DeduplicatesWhateverTheLineBreaks) {
  // The registered bundle already holds the new CA (written by another replica), wrapped
  // differently: it is not added twice, and the previous CA stays.
  const std::string rewrapped =
      "-----BEGIN CERTIFICATE-----\r\nTkVX\r\nQ0E=\r\n-----END CERTIFICATE-----\r\n";
  EXPECT_EQ(merge_ca_bundle(rewrapped + kOld, kNew, 1), kNew + kOld);
  EXPECT_EQ(merge_ca_bundle(kNew, kNew, 1), kNew);
  // A file that already names the previous CA next to the new one (the chart's helm source).
  EXPECT_EQ(merge_ca_bundle(kOld, kNew + kOld, 1), kNew + kOld);
}

TEST(MergeCaBundle, KeepPreviousZeroIsTheFileAsVolcanoWritesIt) {
  EXPECT_EQ(merge_ca_bundle(kOld, kNew, 0), kNew);
  // The file's bytes are kept as they are, even without a trailing newline.
  EXPECT_EQ(merge_ca_bundle("", "raw", 1), "raw");
  EXPECT_EQ(merge_ca_bundle(kOld, "raw", 1), "raw\n" + kOld);
}

TEST(PlanCaBundle, RotationKeepsThePreviousCaInEveryWebhook) {
  const json config =
      webhook_configuration("MutatingWebhookConfiguration", "c",
                            json::array({server::base64_encode(kOld), "not base64!", nullptr}));
  auto plan = plan_ca_bundle(config, kNew, 1);
  ASSERT_TRUE(plan);
  EXPECT_EQ((*plan)["webhooks"][0]["clientConfig"]["caBundle"], server::base64_encode(kNew + kOld));
  // Nothing to keep where the bundle was unreadable or missing.
  EXPECT_EQ((*plan)["webhooks"][1]["clientConfig"]["caBundle"], server::base64_encode(kNew));
  EXPECT_EQ((*plan)["webhooks"][2]["clientConfig"]["caBundle"], server::base64_encode(kNew));
  // Planning again on the written object changes nothing.
  EXPECT_FALSE(plan_ca_bundle(*plan, kNew, 1));
}

}  // namespace
}  // namespace vc::webhook::app
