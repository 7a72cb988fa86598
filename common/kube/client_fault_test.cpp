// Faults: retries and their limits, deadlines, resets, refused connections.

#include <gtest/gtest.h>

#include <atomic>

#include "common/kube/client.h"
#include "common/testing/fake_apiserver.h"

namespace vc::kube {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using vc::testing::FakeApiServer;
using vc::testing::Request;
using vc::testing::Response;

json pod() {
  return {{"kind", "Pod"}, {"metadata", {{"name", "p"}}}};
}

ClientOptions options(std::chrono::milliseconds timeout = 10s) {
  ClientOptions o;
  o.qps = 0;
  o.request_timeout = timeout;
  o.retry_base_delay = 10ms;
  return o;
}

// Answers the first `failures` requests with `failure`, the rest with a pod.
void fail_then_succeed(FakeApiServer& server, const std::string& method, int failures,
                       Response failure) {
  auto count = std::make_shared<std::atomic<int>>(0);
  server.handle(method, "/api/v1/namespaces/ns/pods/p", [=](const Request&) {
    if (count->fetch_add(1) < failures) return failure;
    return Response::json(200, pod());
  });
}

TEST(ClientFaults, TooManyRequestsOnGetIsRetriedAfterRetryAfter) {
  FakeApiServer server;
  fail_then_succeed(
      server, "GET", 1,
      Response::error(429, "TooManyRequests", "slow down").with_header("Retry-After", "1"));
  Client client(server.config(), options());
  const auto t0 = Clock::now();
  auto r = client.get(resources::pods, "ns", "p");
  const auto elapsed = Clock::now() - t0;
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(server.requests().size(), 2u);
  EXPECT_GE(elapsed, 950ms);
  EXPECT_LT(elapsed, 5s);
}

TEST(ClientFaults, TooManyRequestsIsRetriedEvenForCreate) {
  FakeApiServer server;
  server.handle(
      "POST", "/api/v1/namespaces/ns/pods",
      [count = std::make_shared<std::atomic<int>>(0)](const Request&) {
        if (count->fetch_add(1) == 0) {
          return Response::error(429, "TooManyRequests", "x").with_header("Retry-After", "0");
        }
        return Response::json(201, pod());
      });
  Client client(server.config(), options());
  auto r = client.create(resources::pods, "ns", pod());
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST(ClientFaults, ServiceUnavailableOnGetIsRetried) {
  FakeApiServer server;
  fail_then_succeed(server, "GET", 2, Response::error(503, "ServiceUnavailable", "starting"));
  Client client(server.config(), options());
  auto r = client.get(resources::pods, "ns", "p");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST(ClientFaults, RetriesStopAtTheBound) {
  FakeApiServer server;
  server.handle("GET", "/api/v1/namespaces/ns/pods/p",
                [](const Request&) { return Response::error(500, "InternalError", "broken"); });
  ClientOptions o = options();
  o.max_retries = 2;
  Client client(server.config(), o);
  auto r = client.get(resources::pods, "ns", "p");
  EXPECT_TRUE(r.is(ErrorKind::InternalError));
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST(ClientFaults, ServerErrorOnNonIdempotentVerbsIsNotRetried) {
  FakeApiServer server;
  server.handle("*", "/api/v1/namespaces/ns/pods/p",
                [](const Request&) { return Response::error(500, "InternalError", "broken"); });
  Client client(server.config(), options());
  EXPECT_TRUE(client.update(resources::pods, "ns", pod()).is(ErrorKind::InternalError));
  EXPECT_TRUE(client.patch(resources::pods, "ns", "p", PatchType::Merge, "{}")
                  .is(ErrorKind::InternalError));
  EXPECT_TRUE(client.remove(resources::pods, "ns", "p").is(ErrorKind::InternalError));
  EXPECT_EQ(server.requests().size(), 3u) << server.describe_requests();
}

TEST(ClientFaults, ConnectionResetMidBodyOnGetIsRetried) {
  FakeApiServer server;
  Response truncated = Response::json(200, pod());
  truncated.reset_after_body_bytes = 5;
  fail_then_succeed(server, "GET", 1, truncated);
  Client client(server.config(), options());
  auto r = client.get(resources::pods, "ns", "p");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST(ClientFaults, ConnectionResetMidBodyOnCreateIsReturned) {
  FakeApiServer server;
  server.handle("POST", "/api/v1/namespaces/ns/pods", [](const Request&) {
    Response r = Response::json(201, pod());
    r.reset_after_body_bytes = 3;
    return r;
  });
  Client client(server.config(), options());
  auto r = client.create(resources::pods, "ns", pod());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Transport) << r.error().describe();
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(ClientFaults, SlowResponseHitsTheDeadline) {
  FakeApiServer server;
  server.handle("GET", "/api/v1/namespaces/ns/pods/p", [](const Request&) {
    Response r = Response::json(200, pod());
    r.delay = 3s;
    return r;
  });
  Client client(server.config(), options(300ms));
  const auto t0 = Clock::now();
  auto r = client.get(resources::pods, "ns", "p");
  const auto elapsed = Clock::now() - t0;
  ASSERT_TRUE(r.is(ErrorKind::Timeout)) << (r.ok() ? "ok" : r.error().describe());
  EXPECT_GE(elapsed, 290ms);
  EXPECT_LT(elapsed, 1300ms);
  EXPECT_EQ(server.requests().size(), 1u) << "a spent deadline must not be retried";
}

TEST(ClientFaults, StalledResponseHitsTheDeadline) {
  FakeApiServer server;
  server.handle("GET", "/api/v1/namespaces/ns/pods/p", [](const Request&) {
    Response r;
    r.stall = true;
    return r;
  });
  Client client(server.config(), options(300ms));
  const auto t0 = Clock::now();
  auto r = client.get(resources::pods, "ns", "p");
  ASSERT_TRUE(r.is(ErrorKind::Timeout)) << (r.ok() ? "ok" : r.error().describe());
  EXPECT_LT(Clock::now() - t0, 1300ms);
}

TEST(ClientFaults, RefusedConnectionIsATransportErrorAfterBoundedRetries) {
  int port = 0;
  {
    FakeApiServer gone;  // take a free port, then free it
    port = gone.port();
  }
  Config c;
  c.server = "http://127.0.0.1:" + std::to_string(port);
  ClientOptions o = options(5s);
  o.max_retries = 2;
  Client client(c, o);
  const auto t0 = Clock::now();
  auto r = client.get(resources::pods, "ns", "p");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Transport);
  EXPECT_NE(r.error().message.find("connect"), std::string::npos) << r.error().message;
  EXPECT_LT(Clock::now() - t0, 3s);
}

TEST(ClientFaults, RetryAfterLongerThanTheDeadlineReturnsTheError) {
  FakeApiServer server;
  server.handle("GET", "/api/v1/namespaces/ns/pods/p", [](const Request&) {
    return Response::error(429, "TooManyRequests", "x").with_header("Retry-After", "5");
  });
  Client client(server.config(), options(1s));
  const auto t0 = Clock::now();
  auto r = client.get(resources::pods, "ns", "p");
  EXPECT_TRUE(r.is(ErrorKind::TooManyRequests));
  EXPECT_LT(Clock::now() - t0, 1s);
  ASSERT_TRUE(r.error().retry_after.has_value());
  EXPECT_EQ(*r.error().retry_after, 5s);
}

TEST(ClientFaults, ClientSideRateLimitPacesRequests) {
  FakeApiServer server;
  server.handle("GET", "/api/v1/namespaces/ns/pods/p",
                [](const Request&) { return Response::json(200, pod()); });
  ClientOptions o = options();
  o.qps = 20;
  o.burst = 2;
  Client client(server.config(), o);
  const auto t0 = Clock::now();
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(client.get(resources::pods, "ns", "p").ok());
  // 2 immediately, then 4 more at 50 ms intervals.
  EXPECT_GE(Clock::now() - t0, 180ms);
}

}  // namespace
}  // namespace vc::kube
