#include "webhook/server/router.h"

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "webhook/server/server_test_util.h"

namespace vc::webhook::server {
namespace {

using test::metric_value;
using test::review_body;

std::string series(const std::string& name, const std::string& path, const char* result) {
  return name + "{path=\"" + path + "\",result=\"" + result + "\"}";
}

double requests(const std::string& path, const char* result) {
  return metric_value(series("vc_webhook_admission_requests_total", path, result));
}

class RouterTest : public ::testing::Test {
 protected:
  Router make(std::vector<Endpoint> endpoints) {
    return Router(std::move(endpoints), std::make_shared<StaticClusterView>(),
                  std::make_shared<AdmissionOptions>());
  }
  HttpResponse post(const Router& router, std::string_view target, std::string_view body,
                    std::string_view content_type = "application/json") {
    return router.serve({"POST", target, content_type, body});
  }
};

TEST_F(RouterTest, ExactPathGetsTheReviewAndQueryIsIgnored) {
  const Router router =
      make({{"/rt/allow", false,
             [](const AdmissionRequest& r, const ClusterView&, const AdmissionOptions&) {
               EXPECT_EQ(r.operation, "CREATE");
               return AdmissionResponse::allow();
             }}});
  const auto body = review_body("u1", R"("operation":"CREATE")");
  const HttpResponse r = post(router, "/rt/allow?timeout=10s", body);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(r.body, R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1",)"
                    R"("response":{"uid":"u1","allowed":true}})");
  EXPECT_EQ(post(router, "/rt/allow/", body).status, 404);
  EXPECT_EQ(post(router, "/rt", body).status, 404);
}

TEST_F(RouterTest, ConsumingAdmitIsPreferredAndGetsTheDecodedRequest) {
  Endpoint endpoint{"/rt/consume", true,
                    [](const AdmissionRequest&, const ClusterView&, const AdmissionOptions&) {
                      return AdmissionResponse::deny("the copying variant was called");
                    }};
  endpoint.admit_consuming = [](AdmissionRequest& r, const ClusterView&, const AdmissionOptions&) {
    EXPECT_EQ(r.operation, "CREATE");
    return AdmissionResponse::allow();
  };
  const Router router = make({std::move(endpoint)});
  const HttpResponse r = post(router, "/rt/consume", review_body("u2", R"("operation":"CREATE")"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1",)"
                    R"("response":{"uid":"u2","allowed":true}})");
}

TEST_F(RouterTest, UnknownPathGetsGoNotFound) {
  const Router router = make({});
  const HttpResponse r = post(router, "/nope", review_body("u"));
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.body, "404 page not found\n");
  EXPECT_EQ(r.content_type, "text/plain; charset=utf-8");
}

TEST_F(RouterTest, AnyMethodIsServedAsVolcanoDoes) {
  const Router router =
      make({{"/rt/any", false, [](auto&, auto&, auto&) { return AdmissionResponse::allow(); }}});
  for (const char* method : {"POST", "PUT", "GET", "PATCH"}) {
    EXPECT_EQ(router.serve({method, "/rt/any", "application/json", review_body("u")}).status, 200)
        << method;
  }
}

TEST_F(RouterTest, ContentTypeMustBeJson) {
  const Router router =
      make({{"/rt/ct", false, [](auto&, auto&, auto&) { return AdmissionResponse::allow(); }}});
  const HttpResponse r = post(router, "/rt/ct", review_body("u"), "text/plain");
  EXPECT_EQ(r.status, 415);
  EXPECT_EQ(r.body, "unsupported Content-Type \"text/plain\", want application/json\n");
  EXPECT_EQ(post(router, "/rt/ct", review_body("u"), "").status, 415);
  EXPECT_EQ(post(router, "/rt/ct", review_body("u"), "application/json; charset=utf-8").status,
            200);
  EXPECT_EQ(post(router, "/rt/ct", review_body("u"), "Application/JSON").status, 200);
}

TEST_F(RouterTest, UndecodableReviewGets400WithReason) {
  const Router router =
      make({{"/rt/bad", false, [](auto&, auto&, auto&) { return AdmissionResponse::allow(); }}});
  const HttpResponse r = post(router, "/rt/bad", "{}");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, "bad AdmissionReview: request is missing\n");
}

TEST_F(RouterTest, AdmitExceptionGives500WithTheMessage) {
  const Router router = make({{"/rt/throw", false, [](auto&, auto&, auto&) -> AdmissionResponse {
                                 throw std::runtime_error("boom");
                               }}});
  const double before = requests("/rt/throw", "error");
  const HttpResponse r = post(router, "/rt/throw", review_body("u"));
  EXPECT_EQ(r.status, 500);
  EXPECT_EQ(r.body, "admission /rt/throw failed: boom\n");
  EXPECT_EQ(requests("/rt/throw", "error"), before + 1);
}

TEST_F(RouterTest, NonArrayPatchFromAdmitGives500) {
  const Router router = make({{"/rt/badpatch", true, [](auto&, auto&, auto&) {
                                 return AdmissionResponse::mutate(nlohmann::json{{"op", "add"}});
                               }}});
  EXPECT_EQ(post(router, "/rt/badpatch", review_body("u")).status, 500);
}

TEST_F(RouterTest, CountsAndTimesEveryResultByPath) {
  const Router router =
      make({{"/rt/count", false, [](const AdmissionRequest& r, auto&, auto&) {
               return r.name == "bad" ? AdmissionResponse::deny("no") : AdmissionResponse::allow();
             }}});
  const double allowed = requests("/rt/count", "allowed");
  const double denied = requests("/rt/count", "denied");
  const double errors = requests("/rt/count", "error");
  post(router, "/rt/count", review_body("u", R"("name":"good")"));
  post(router, "/rt/count", review_body("u", R"("name":"good")"));
  post(router, "/rt/count", review_body("u", R"("name":"bad")"));
  post(router, "/rt/count", "garbage");
  EXPECT_EQ(router.body_too_large("/rt/count?x=1").status, 413);
  EXPECT_EQ(requests("/rt/count", "allowed"), allowed + 2);
  EXPECT_EQ(requests("/rt/count", "denied"), denied + 1);
  EXPECT_EQ(requests("/rt/count", "error"), errors + 2);
  EXPECT_EQ(
      metric_value(series("vc_webhook_admission_duration_seconds_count", "/rt/count", "allowed")),
      allowed + 2);
}

TEST_F(RouterTest, BodyTooLargeOnUnknownPathIsNotFound) {
  const Router router = make({});
  const HttpResponse r = router.body_too_large("/elsewhere");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.body, "404 page not found\n");
}

TEST_F(RouterTest, ConfigurationMistakesAreRejectedAtConstruction) {
  const AdmitFn allow = [](auto&, auto&, auto&) { return AdmissionResponse::allow(); };
  try {
    make({{"/rt/dup", false, allow}, {"/rt/dup", true, allow}});
    FAIL() << "duplicate path accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "duplicated admission service for /rt/dup");
  }
  EXPECT_THROW(make({{"rt/relative", false, allow}}), std::invalid_argument);
  EXPECT_THROW(make({{"/rt/noadmit", false, nullptr}}), std::invalid_argument);
  EXPECT_THROW(Router({}, nullptr, std::make_shared<AdmissionOptions>()), std::invalid_argument);
}

TEST(ContentType, JsonWithParametersIsJson) {
  EXPECT_TRUE(is_json_content_type("application/json"));
  EXPECT_TRUE(is_json_content_type(" application/json ; charset=utf-8"));
  EXPECT_FALSE(is_json_content_type("application/jsonx"));
  EXPECT_FALSE(is_json_content_type("application/yaml"));
  EXPECT_FALSE(is_json_content_type(""));
}

}  // namespace
}  // namespace vc::webhook::server
