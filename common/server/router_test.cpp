#include "common/server/router.h"

#include <stdexcept>

#include <gtest/gtest.h>
#include <prometheus/gauge.h>

#include "common/metrics/registry.h"

namespace vc::server {
namespace {

Request get(std::string path, std::string query = {}) {
  return Request{"GET", std::move(path), std::move(query)};
}

TEST(Router, MetricsRendersTheProcessRegistry) {
  prometheus::BuildGauge()
      .Name("vc_router_test_value")
      .Help("test")
      .Register(vc::metrics::registry())
      .Add({})
      .Set(2);
  Router router;
  const Response r = router.route(get("/metrics"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/plain; version=0.0.4");
  EXPECT_NE(r.body.find("vc_router_test_value 2"), std::string::npos) << r.body;
}

TEST(Router, HealthzWithoutChecksIsOk) {
  Router router;
  const Response r = router.route(get("/healthz"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "ok");
}

TEST(Router, FailingChecksGive500AndAreNamed) {
  Router router;
  router.add_health_check("ping", [] { return true; });
  router.add_health_check("informers", [] { return false; });
  router.add_health_check("exploding", []() -> bool { throw std::runtime_error("boom"); });
  const Response r = router.route(get("/healthz"));
  EXPECT_EQ(r.status, 500);
  EXPECT_EQ(r.body, "[+]ping ok\n[-]informers failed\n[-]exploding failed\nhealthz check failed\n");
  EXPECT_EQ(router.route(get("/livez")).status, 500);
}

TEST(Router, ReadyzRunsOnlyReadinessChecks) {
  Router router;
  router.add_health_check("alive", [] { return true; });
  router.add_ready_check("synced", [] { return false; });
  EXPECT_EQ(router.route(get("/healthz")).status, 200);
  const Response r = router.route(get("/readyz"));
  EXPECT_EQ(r.status, 500);
  EXPECT_NE(r.body.find("[-]synced failed"), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("alive"), std::string::npos) << r.body;
}

TEST(Router, ReAddingACheckReplacesIt) {
  Router router;
  router.add_ready_check("synced", [] { return false; });
  router.add_ready_check("synced", [] { return true; });
  EXPECT_EQ(router.route(get("/readyz")).status, 200);
}

TEST(Router, VerboseListsEveryCheckWhenHealthy) {
  Router router;
  router.add_health_check("a", [] { return true; });
  router.add_health_check("b", [] { return true; });
  const Response r = router.route(get("/healthz", "verbose"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "[+]a ok\n[+]b ok\nhealthz check passed\n");
  EXPECT_EQ(router.route(get("/healthz", "x=1&verbose=true")).body, r.body);
}

TEST(Router, AddedHandlerSeesPathAndQuery) {
  Router router;
  router.add_handler("/debug/config", [](const Request& req) {
    return Response::text(200, req.path + "|" + req.query);
  });
  const Response r = router.route(get("/debug/config", "a=1"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "/debug/config|a=1");
}

TEST(Router, UnknownPathIs404AndOtherMethodsAre405) {
  Router router;
  EXPECT_EQ(router.route(get("/nope")).status, 404);
  const Response r = router.route(Request{"POST", "/healthz", ""});
  EXPECT_EQ(r.status, 405);
  ASSERT_EQ(r.headers.size(), 1u);
  EXPECT_EQ(r.headers[0].first, "Allow");
  EXPECT_EQ(r.headers[0].second, "GET, HEAD");
}

TEST(Router, ThrowingHandlerGives500) {
  Router router;
  router.add_handler("/bad", [](const Request&) -> Response { throw std::logic_error("bug"); });
  EXPECT_EQ(router.route(get("/bad")).status, 500);
}

}  // namespace
}  // namespace vc::server
