#include "bench/webhook/response_check.h"

#include <string>

#include <gtest/gtest.h>

namespace vc::bench {
namespace {

constexpr std::string_view kUid = "deadbeef-0007-4000-8000-00000000002a";

std::string answer(std::string_view uid, std::string_view allowed_and_more) {
  return R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","response":{"uid":")" +
         std::string(uid) + "\"," + std::string(allowed_and_more) + "}}";
}

TEST(ScanReviewAnswer, PicksOutTheFieldsAndSkipsTheRest) {
  const std::string body =
      R"({ "kind" : "AdmissionReview", "apiVersion":"admission.k8s.io/v1",
           "extra": [1, -2.5e3, true, null, {"uid": "not-this-one"}, "s\"q\\u00e9"],
           "response": {"patch": "W3sib3AiOiJhZGQi", "uid": "u-1", "allowed": false,
                        "status": {"metadata": {}, "message": "denied: \"x\""},
                        "warnings": ["w"]}})";
  ReviewAnswer a;
  ASSERT_EQ(scan_review_answer(body, a), std::nullopt);
  EXPECT_EQ(a.kind, "AdmissionReview");
  EXPECT_EQ(a.api_version, "admission.k8s.io/v1");
  EXPECT_TRUE(a.has_response);
  EXPECT_EQ(a.uid, "u-1");
  ASSERT_TRUE(a.allowed.has_value());
  EXPECT_FALSE(*a.allowed);
  EXPECT_EQ(a.message, R"(denied: \"x\")");
}

TEST(ScanReviewAnswer, MalformedJsonIsReportedWithItsOffset) {
  ReviewAnswer a;
  for (const char* bad :
       {"", "{", R"({"a":})", R"({"a":1,})", R"({"a":"unterminated)", R"({"a":tru})",
        R"({"a":"\x"})", "{\"a\":\"ctl\x01\"}", "{} {}", R"([1 2])", R"({"a" 1})"}) {
    const auto err = scan_review_answer(bad, a);
    ASSERT_TRUE(err.has_value()) << bad;
    EXPECT_NE(err->find("malformed JSON at byte"), std::string::npos) << *err;
  }
}

TEST(ScanReviewAnswer, DeepNestingIsRejectedRatherThanOverflowingTheStack) {
  const std::string deep = std::string(10'000, '[') + std::string(10'000, ']');
  ReviewAnswer a;
  const auto err = scan_review_answer(deep, a);
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find("nesting too deep"), std::string::npos) << *err;
}

TEST(CheckReviewResponse, MatchingUidAndExpectedVerdictPass) {
  EXPECT_EQ(check_review_response(200, answer(kUid, R"("allowed":true)"), kUid, true),
            std::nullopt);
  EXPECT_EQ(check_review_response(200, answer(kUid, R"("allowed":false,"status":{"message":"no"})"),
                                  kUid, false),
            std::nullopt);
}

TEST(CheckReviewResponse, NonOkStatusIsAnErrorShowingTheBody) {
  const auto err = check_review_response(413, "request body too large\n", kUid, true);
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(*err, "HTTP 413: request body too large ");
}

TEST(CheckReviewResponse, UidMismatchIsAnError) {
  const auto err =
      check_review_response(200, answer("someone-else", R"("allowed":true)"), kUid, true);
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find("does not match request uid"), std::string::npos) << *err;
}

TEST(CheckReviewResponse, UnexpectedVerdictIsAnErrorCarryingTheDenialMessage) {
  const auto denied = check_review_response(
      200, answer(kUid, R"("allowed":false,"status":{"metadata":{},"message":"queue closed"})"),
      kUid, true);
  ASSERT_TRUE(denied.has_value());
  EXPECT_EQ(*denied, "allowed=false, expected allowed: queue closed");
  const auto allowed = check_review_response(200, answer(kUid, R"("allowed":true)"), kUid, false);
  ASSERT_TRUE(allowed.has_value());
  EXPECT_EQ(*allowed, "allowed=true, expected denied");
}

TEST(CheckReviewResponse, MissingOrNonBooleanAllowedIsAnError) {
  EXPECT_TRUE(check_review_response(200, answer(kUid, R"("x":1)"), kUid, true).has_value());
  EXPECT_TRUE(
      check_review_response(200, answer(kUid, R"("allowed":"true")"), kUid, true).has_value());
}

TEST(CheckReviewResponse, EmptyBodyWrongKindAndMissingResponseAreErrors) {
  // Volcano answers 200 with an empty body when the Content-Type is not application/json.
  EXPECT_TRUE(check_review_response(200, "", kUid, true).has_value());
  EXPECT_TRUE(
      check_review_response(200, R"({"kind":"Status","apiVersion":"v1"})", kUid, true).has_value());
  const auto err = check_review_response(
      200, R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1"})", kUid, true);
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find("without a response"), std::string::npos) << *err;
}

}  // namespace
}  // namespace vc::bench
