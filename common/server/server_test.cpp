#include "common/server/server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "common/server/raw_client_test_util.h"

namespace vc::server {
namespace {

using namespace std::chrono_literals;
using vc::server::testing::HttpReply;
using vc::server::testing::RawClient;

ServerOptions local(ServerOptions o = {}) {
  o.address = "127.0.0.1:0";
  return o;
}

TEST(Server, BindsAnEphemeralPortAndServesMetrics) {
  Server server(local());
  EXPECT_EQ(server.port(), 0);
  server.start();
  ASSERT_NE(server.port(), 0);
  RawClient client(server.port());
  const auto r = client.get("/metrics");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->header("content-type"), "text/plain; version=0.0.4");
}

TEST(Server, HealthAndReadinessFollowTheirChecks) {
  Server server(local());
  std::atomic<bool> synced{false};
  server.add_health_check("ping", [] { return true; });
  server.add_ready_check("informers-synced", [&] { return synced.load(); });
  server.start();
  RawClient client(server.port());
  auto health = client.get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ(health->body, "ok");
  auto ready = client.get("/readyz");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 500);
  EXPECT_NE(ready->body.find("[-]informers-synced failed"), std::string::npos) << ready->body;
  synced = true;
  ready = client.get("/readyz");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 200);
}

TEST(Server, AddedHandlerAnswersGetAndHeadWithoutBody) {
  Server server(local());
  server.add_handler("/version", [](const Request&) { return Response::text(200, "v1.2.3"); });
  server.start();
  RawClient client(server.port());
  const auto r = client.get("/version?x=1");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "v1.2.3");
  client.send("HEAD /version HTTP/1.1\r\nHost: t\r\n\r\n");
  const auto head = client.read_response(true);
  ASSERT_TRUE(head);
  EXPECT_EQ(head->status, 200);
  EXPECT_EQ(head->header("content-length"), "6");
  // The next response on the connection starts right after the head: no body was sent.
  const auto after = client.get("/healthz");
  ASSERT_TRUE(after);
  EXPECT_EQ(after->body, "ok");
}

TEST(Server, KeepAliveServesPipelinedRequestsInOrder) {
  Server server(local());
  server.add_handler("/a", [](const Request&) { return Response::text(200, "A"); });
  server.add_handler("/b", [](const Request&) { return Response::text(200, "B"); });
  server.start();
  RawClient client(server.port());
  client.send(
      "GET /a HTTP/1.1\r\nHost: t\r\n\r\nGET /b HTTP/1.1\r\nHost: t\r\n\r\n"
      "POST /a HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n");
  const auto a = client.read_response();
  const auto b = client.read_response();
  const auto post = client.read_response();
  ASSERT_TRUE(a && b && post);
  EXPECT_EQ(a->body, "A");
  EXPECT_EQ(b->body, "B");
  EXPECT_EQ(post->status, 405);
  EXPECT_EQ(post->header("allow"), "GET, HEAD");
  EXPECT_EQ(client.get("/nope")->status, 404);
}

TEST(Server, ConnectionCloseIsHonoured) {
  Server server(local());
  server.start();
  RawClient client(server.port());
  client.send("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
  const auto r = client.read_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->header("connection"), "close");
  EXPECT_TRUE(client.closed_by_server());
}

TEST(Server, ClosesAfterMaxRequestsPerConnection) {
  Server server(local({.max_requests_per_connection = 2}));
  server.start();
  RawClient client(server.port());
  const auto first = client.get("/healthz");
  ASSERT_TRUE(first);
  EXPECT_EQ(first->headers.count("connection"), 0u);
  const auto second = client.get("/healthz");
  ASSERT_TRUE(second);
  EXPECT_EQ(second->header("connection"), "close");
  EXPECT_TRUE(client.closed_by_server());
}

TEST(Server, OversizedHeaderGets431AndTheConnectionCloses) {
  Server server(local());
  server.start();
  RawClient client(server.port());
  client.send("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(9000, 'a') + "\r\n\r\n");
  const auto r = client.read_response();
  ASSERT_TRUE(r) << "no response to an oversized header";
  EXPECT_EQ(r->status, 431);
  EXPECT_TRUE(client.closed_by_server());
}

TEST(Server, OversizedBodyGets413) {
  Server server(local({.body_limit = 16}));
  server.start();
  RawClient client(server.port());
  client.send("GET /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n" +
              std::string(100, 'x'));
  const auto r = client.read_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_TRUE(client.closed_by_server());
}

TEST(Server, MalformedRequestGets400) {
  Server server(local());
  server.start();
  RawClient client(server.port());
  client.send("NOT HTTP AT ALL\r\n\r\n");
  const auto r = client.read_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_TRUE(client.closed_by_server());
}

TEST(Server, IdleConnectionIsClosedAfterTheReadTimeout) {
  Server server(local({.read_timeout = 200ms}));
  server.start();
  RawClient client(server.port());
  ASSERT_TRUE(client.get("/healthz"));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(client.closed_by_server());
  EXPECT_GE(std::chrono::steady_clock::now() - start, 100ms);
}

TEST(Server, AtTheLimitANewConnectionTakesTheSlotOfAnIdleOne) {
  Server server(local({.max_connections = 1}));
  server.start();
  RawClient first(server.port());
  ASSERT_TRUE(first.get("/healthz"));  // now certainly accepted, counted and idle
  RawClient second(server.port());
  EXPECT_TRUE(second.get("/healthz"));
  EXPECT_TRUE(first.closed_by_server());
}

TEST(Server, StartOnABusyPortThrows) {
  Server first(local());
  first.start();
  Server second({.address = "127.0.0.1:" + std::to_string(first.port())});
  EXPECT_THROW(second.start(), std::runtime_error);
}

TEST(Server, StopClosesIdleConnectionsAndRefusesNewOnes) {
  Server server(local());
  server.start();
  const auto port = server.port();
  RawClient idle(port);
  ASSERT_TRUE(idle.get("/healthz"));
  server.stop();
  EXPECT_TRUE(idle.closed_by_server());
  RawClient late(port);
  EXPECT_FALSE(late.connected() && late.get("/healthz"));
  server.stop();  // a second stop is harmless
}

TEST(Server, StopLetsAResponseInFlightFinish) {
  Server server(local());
  std::mutex mu;
  std::condition_variable cv;
  bool entered = false;
  bool release = false;
  server.add_handler("/slow", [&](const Request&) {
    std::unique_lock lock(mu);
    entered = true;
    cv.notify_all();
    cv.wait(lock, [&] { return release; });
    return Response::text(200, "done");
  });
  server.start();
  RawClient client(server.port());
  client.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n");
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, 5s, [&] { return entered; })) << "handler never ran";
  }
  auto stopped = std::async(std::launch::async, [&] { server.stop(); });
  EXPECT_EQ(stopped.wait_for(100ms), std::future_status::timeout) << "stop did not wait";
  {
    std::lock_guard lock(mu);
    release = true;
    cv.notify_all();
  }
  const auto r = client.read_response();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "done");
  EXPECT_TRUE(client.closed_by_server());
  EXPECT_EQ(stopped.wait_for(5s), std::future_status::ready);
}

TEST(Server, TwoThreadsServeManyConnections) {
  Server server(local({.threads = 2}));
  server.start();
  std::vector<std::future<int>> results;
  for (int i = 0; i < 8; ++i) {
    results.push_back(std::async(std::launch::async, [&] {
      RawClient c(server.port());
      int ok = 0;
      for (int j = 0; j < 20; ++j) ok += c.get("/healthz").value_or(HttpReply{}).status == 200;
      return ok;
    }));
  }
  for (auto& r : results) EXPECT_EQ(r.get(), 20);
}

}  // namespace
}  // namespace vc::server
