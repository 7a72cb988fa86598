// Faults: retries and their limits, deadlines, resets, refused connections; and fencing
// (Client::fence), by which a replica that lost its lease makes no further write: calls in
// flight are cancelled at once with their connection reset, later calls are refused without
// reaching the server, and unfence() restores the client for the next term. The fencing tests
// give calls a 20 s deadline, far beyond any of their waits, so only the fence can end them.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <future>

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

// Never answers: only a deadline, a cancellation or a fence ends the call.
Response stalled(const Request&) {
  Response r;
  r.stall = true;
  return r;
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
  server.handle("GET", "/api/v1/namespaces/ns/pods/p", stalled);
  Client client(server.config(), options(300ms));
  const auto t0 = Clock::now();
  auto r = client.get(resources::pods, "ns", "p");
  ASSERT_TRUE(r.is(ErrorKind::Timeout)) << (r.ok() ? "ok" : r.error().describe());
  EXPECT_LT(Clock::now() - t0, 1300ms);
}

TEST(ClientFaults, ACallDeadlineTighterThanTheRequestTimeoutEndsTheCall) {
  FakeApiServer server;
  server.handle("POST", "/api/v1/namespaces/ns/pods", stalled);
  Client client(server.config(), options(20s));
  const auto t0 = Clock::now();
  auto r = client.create(resources::pods, "ns", pod(), Clock::now() + 300ms);
  ASSERT_TRUE(r.is(ErrorKind::Timeout)) << (r.ok() ? "ok" : r.error().describe());
  EXPECT_LT(Clock::now() - t0, 1300ms);
  auto late = client.create(resources::pods, "ns", pod(), Clock::now() - 1ms);
  EXPECT_TRUE(late.is(ErrorKind::Timeout)) << "a spent call deadline still sent the request";
  EXPECT_EQ(server.requests().size(), 1u) << server.describe_requests();
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

void serve_pod(FakeApiServer& server) {
  server.handle("GET", "/api/v1/namespaces/ns/pods/p",
                [](const Request&) { return Response::json(200, pod()); });
}

ClientOptions one_token_then_one_per_20s() {
  ClientOptions o = options(20s);
  o.qps = 0.05;
  o.burst = 1;
  return o;
}

TEST(ClientFaults, FailFastCallWithAnEmptyBucketFailsAtOnceAndSendsNothing) {
  FakeApiServer server;
  serve_pod(server);
  Client client(server.config(), one_token_then_one_per_20s());
  ASSERT_TRUE(client.get(resources::pods, "ns", "p", {}, {}, LimiterWait::FailFast).ok());
  const auto t0 = Clock::now();
  auto r = client.get(resources::pods, "ns", "p", {}, {}, LimiterWait::FailFast);
  EXPECT_LT(Clock::now() - t0, 100ms);
  ASSERT_TRUE(r.is(ErrorKind::TooManyRequests)) << (r.ok() ? "ok" : r.error().describe());
  EXPECT_EQ(r.error().http_status, 0);
  EXPECT_NE(r.error().message.find("rate limiter"), std::string::npos) << r.error().message;
  EXPECT_EQ(server.requests().size(), 1u) << server.describe_requests();
}

TEST(ClientFence, CancelsACallInFlightAtOnce) {
  FakeApiServer server;
  server.handle("POST", "/api/v1/namespaces/ns/pods", stalled);
  Client client(server.config(), options(20s));
  auto call =
      std::async(std::launch::async, [&] { return client.create(resources::pods, "ns", pod()); });
  ASSERT_TRUE(server.wait_for_requests(1, 5s)) << server.describe_requests();
  const auto t0 = Clock::now();
  client.fence();
  ASSERT_EQ(call.wait_for(2s), std::future_status::ready) << "the fenced call did not return";
  auto r = call.get();
  EXPECT_LT(Clock::now() - t0, 2s);
  ASSERT_TRUE(r.is(ErrorKind::Cancelled)) << (r.ok() ? "ok" : r.error().describe());
  EXPECT_TRUE(client.fenced());
}

TEST(ClientFence, RefusesNewCallsUntilUnfenced) {
  FakeApiServer server;
  server.handle("POST", "/api/v1/namespaces/ns/pods",
                [](const Request&) { return Response::json(201, pod()); });
  Client client(server.config(), options(20s));
  client.fence();
  auto refused = client.create(resources::pods, "ns", pod());
  ASSERT_TRUE(refused.is(ErrorKind::Cancelled))
      << (refused.ok() ? "ok" : refused.error().describe());
  EXPECT_NE(refused.error().message.find("fenced"), std::string::npos) << refused.error().message;
  EXPECT_TRUE(server.requests().empty()) << "a fenced call reached the server:\n"
                                         << server.describe_requests();
  client.unfence();
  EXPECT_FALSE(client.fenced());
  auto created = client.create(resources::pods, "ns", pod());
  ASSERT_TRUE(created.ok()) << created.error().describe();
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(ClientFence, CancelsACallWaitingForTheRateLimiter) {
  FakeApiServer server;
  serve_pod(server);
  Client client(server.config(), one_token_then_one_per_20s());
  ASSERT_TRUE(client.get(resources::pods, "ns", "p").ok());
  auto waiting =
      std::async(std::launch::async, [&] { return client.get(resources::pods, "ns", "p"); });
  ASSERT_EQ(waiting.wait_for(200ms), std::future_status::timeout) << "no wait for a token";
  client.fence();
  ASSERT_EQ(waiting.wait_for(2s), std::future_status::ready) << "still waiting for a token";
  auto r = waiting.get();
  EXPECT_TRUE(r.is(ErrorKind::Cancelled)) << (r.ok() ? "ok" : r.error().describe());
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(ClientFence, CancelsTheWaitBeforeARetry) {
  FakeApiServer server;
  server.handle("GET", "/api/v1/namespaces/ns/pods/p", [](const Request&) {
    return Response::error(429, "TooManyRequests", "later").with_header("Retry-After", "10");
  });
  Client client(server.config(), options(20s));
  auto call =
      std::async(std::launch::async, [&] { return client.get(resources::pods, "ns", "p"); });
  ASSERT_TRUE(server.wait_for_requests(1, 5s));
  client.fence();
  ASSERT_EQ(call.wait_for(2s), std::future_status::ready) << "still waiting to retry";
  EXPECT_TRUE(call.get().is(ErrorKind::Cancelled));
  EXPECT_EQ(server.requests().size(), 1u) << server.describe_requests();
}

// A listener that accepts one connection and never answers. It tells when the request's first
// bytes arrived and how the client then ended the connection: reset (ECONNRESET) or an orderly
// close (0, end of stream); -1 when nothing happened within the timeout.
class SilentListener {
 public:
  SilentListener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&a), len) != 0 ||
        ::listen(fd_, 1) != 0 || ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      throw std::runtime_error("listener");
    }
    port_ = ntohs(a.sin_port);
    timeval tv{10, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);  // bounds accept too
    worker_ = std::async(std::launch::async, [this] { return serve(); });
  }
  ~SilentListener() {
    ::shutdown(fd_, SHUT_RDWR);
    if (worker_.valid()) worker_.wait();
    ::close(fd_);
  }
  int port() const { return port_; }
  bool wait_request(std::chrono::seconds timeout) {
    return got_bytes_.get_future().wait_for(timeout) == std::future_status::ready;
  }
  int how_client_ended() { return worker_.get(); }

 private:
  int serve() {
    const int c = ::accept(fd_, nullptr, nullptr);
    if (c < 0) return -1;
    timeval tv{10, 0};
    ::setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char buf[4096];
    bool first = true;
    int result = -1;
    for (;;) {
      const ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n > 0) {
        if (first) got_bytes_.set_value();
        first = false;
        continue;
      }
      result = n == 0 ? 0 : (errno == EAGAIN || errno == EWOULDBLOCK ? -1 : errno);
      break;
    }
    ::close(c);
    return result;
  }

  int fd_ = -1;
  int port_ = 0;
  std::promise<void> got_bytes_;
  std::future<int> worker_;
};

TEST(ClientFence, ResetsTheConnectionOfACancelledWrite) {
  SilentListener listener;
  Config c;
  c.server = "http://127.0.0.1:" + std::to_string(listener.port());
  Client client(c, options(20s));
  auto call =
      std::async(std::launch::async, [&] { return client.create(resources::pods, "ns", pod()); });
  ASSERT_TRUE(listener.wait_request(5s)) << "the request never arrived";
  client.fence();
  ASSERT_EQ(call.wait_for(2s), std::future_status::ready);
  EXPECT_TRUE(call.get().is(ErrorKind::Cancelled));
  EXPECT_EQ(listener.how_client_ended(), ECONNRESET)
      << "a cancelled write must reset its connection, so nothing of it is delivered later";
}

}  // namespace
}  // namespace vc::kube
