// The HTTP server core's defences against clients that hold resources: the bytes-in-flight
// budget, the per-peer connection cap, and idle connections closed first when the table is full.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/server/http_server.h"
#include "common/server/raw_client_test_util.h"
#include "common/testing/eventually.h"

namespace vc::server {
namespace {

using testing::RawClient;
using vc::testing::eventually;

// Answers "ok <body size>"; refusals as the webhook words them; counts the connection events.
class CountingService final : public HttpService {
 public:
  HttpResponse serve(const HttpRequest& request) const override {
    return HttpResponse::text(200, "ok " + std::to_string(request.body.size()));
  }
  HttpResponse refuse(Refusal why, std::string_view, std::string_view detail) const override {
    if (why == Refusal::OverBudget) return HttpResponse::busy(std::string(detail));
    return HttpResponse::text(why == Refusal::BodyTooLarge ? 413 : 400, "refused\n");
  }
  std::size_t working_set(const HttpRequest& request) const override {
    return request.body.size() * tree_factor;
  }
  void connection_rejected(std::size_t) const override { ++rejected; }
  void peer_connection_rejected(std::string_view, std::size_t) const override { ++peer_rejected; }
  void idle_connection_evicted() const override { ++evicted; }

  std::size_t tree_factor = 0;
  mutable std::atomic<int> rejected{0};
  mutable std::atomic<int> peer_rejected{0};
  mutable std::atomic<int> evicted{0};
};

constexpr std::size_t kKiB = 1024;

HttpServerOptions local(HttpServerOptions o) {
  o.host = "127.0.0.1";
  o.header_timeout = std::chrono::seconds(30);
  o.body_timeout = std::chrono::seconds(30);
  o.idle_timeout = std::chrono::seconds(30);
  return o;
}

std::string post_header(std::size_t length) {
  return "POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(length) +
         "\r\n\r\n";
}

// A keep-alive client that has been answered once: the server sees it idle.
std::unique_ptr<RawClient> idle_client(std::uint16_t port, const char* source = "") {
  auto client = std::make_unique<RawClient>(port, source);
  const auto reply = client->get("/");
  EXPECT_TRUE(reply && reply->status == 200);
  return client;
}

TEST(HttpServerBudget, SlowUploadsOverTheLargeShareGet429AtOnceAndSmallRequestsStillPass) {
  auto service = std::make_shared<CountingService>();
  // Large requests may hold half of 1 MiB: two uploads of 200 KiB fit, a third does not.
  HttpServer server(
      local(
          {.body_limit = 1024 * kKiB, .inflight_budget = 1024 * kKiB, .large_request = 64 * kKiB}),
      service);
  server.start();
  constexpr std::size_t kUpload = 200 * kKiB;
  const std::string part(kKiB, 'x');
  std::vector<std::unique_ptr<RawClient>> slow;
  for (int i = 0; i < 2; ++i) {
    slow.push_back(std::make_unique<RawClient>(server.port()));
    slow.back()->send(post_header(kUpload) + part);  // and then nothing for now: a slow upload
    const std::size_t want = (i + 1) * kUpload;
    ASSERT_TRUE(eventually([&] { return server.inflight_bytes() >= want; }))
        << "upload " << i << " reserved: " << server.inflight_bytes();
  }
  for (int i = 0; i < 6; ++i) {
    RawClient refused(server.port());
    refused.send(post_header(kUpload) + part);
    const auto reply = refused.read_response();
    ASSERT_TRUE(reply) << "upload " << i + 2 << " got no answer";
    EXPECT_EQ(reply->status, 429);
    EXPECT_EQ(reply->header("retry-after"), "1");
    EXPECT_NE(reply->body.find("bytes in flight"), std::string::npos) << reply->body;
    EXPECT_TRUE(refused.closed_by_server());
    EXPECT_LE(server.inflight_bytes(), 1024 * kKiB);
  }
  // The other half of the budget is for small requests.
  RawClient small(server.port());
  small.send(post_header(kKiB) + part);
  const auto small_reply = small.read_response();
  ASSERT_TRUE(small_reply);
  EXPECT_EQ(small_reply->status, 200);
  EXPECT_EQ(small_reply->body, "ok 1024");
  // A slow upload that finishes is served, and its bytes come back.
  slow[0]->send(std::string(kUpload - kKiB, 'y'));
  const auto done = slow[0]->read_response();
  ASSERT_TRUE(done);
  EXPECT_EQ(done->status, 200);
  EXPECT_EQ(done->body, "ok " + std::to_string(kUpload));
  slow.clear();
  EXPECT_TRUE(eventually([&] { return server.inflight_bytes() == 0; })) << server.inflight_bytes();
}

TEST(HttpServerBudget, WhatTheServiceWillBuildIsReservedBeforeItServes) {
  auto service = std::make_shared<CountingService>();
  service->tree_factor = 20;  // a parsed tree twenty times the body
  HttpServer server(
      local(
          {.body_limit = 256 * kKiB, .inflight_budget = 1024 * kKiB, .large_request = 512 * kKiB}),
      service);
  server.start();
  RawClient client(server.port());
  client.send(post_header(10 * kKiB) + std::string(10 * kKiB, 'x'));  // 200 KiB built: fits
  auto reply = client.read_response();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
  client.send(post_header(100 * kKiB) + std::string(100 * kKiB, 'x'));  // 2 MiB: does not
  reply = client.read_response();
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 429);
  EXPECT_TRUE(eventually([&] { return server.inflight_bytes() == 0; }));
}

TEST(HttpServerConnections, PerPeerCapClosesNewConnectionsWhenNoneOfThePeersIsIdle) {
  auto service = std::make_shared<CountingService>();
  HttpServer server(local({.max_connections_per_peer = 2}), service);
  server.start();
  // Two connections of 127.0.0.1 in the middle of a request header: busy, not idle.
  RawClient busy1(server.port(), "127.0.0.1");
  RawClient busy2(server.port(), "127.0.0.1");
  busy1.send("GET / HTTP/1.1\r\n");
  busy2.send("GET / HTTP/1.1\r\n");
  // Both headers begun: the server holds their bytes, so neither is idle any more.
  ASSERT_TRUE(eventually([&] { return server.inflight_bytes() >= 2 * 16 * kKiB; }))
      << server.inflight_bytes();
  RawClient third(server.port(), "127.0.0.1");
  EXPECT_TRUE(third.closed_by_server());
  EXPECT_EQ(service->peer_rejected.load(), 1);
  // Another address has its own cap.
  RawClient other(server.port(), "127.0.0.2");
  const auto reply = other.get("/");
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
  // The busy ones finish their requests.
  busy1.send("Host: t\r\n\r\n");
  const auto finished = busy1.read_response();
  ASSERT_TRUE(finished);
  EXPECT_EQ(finished->status, 200);
}

TEST(HttpServerConnections, PerPeerCapClosesThePeersOldestIdleConnectionFirst) {
  auto service = std::make_shared<CountingService>();
  HttpServer server(local({.max_connections_per_peer = 2}), service);
  server.start();
  auto oldest = idle_client(server.port(), "127.0.0.1");
  auto newer = idle_client(server.port(), "127.0.0.1");
  auto other_peer = idle_client(server.port(), "127.0.0.2");
  RawClient fresh(server.port(), "127.0.0.1");
  const auto reply = fresh.get("/");
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
  EXPECT_TRUE(oldest->closed_by_server());
  EXPECT_EQ(service->evicted.load(), 1);
  EXPECT_EQ(service->peer_rejected.load(), 0);
  for (auto* kept : {newer.get(), other_peer.get()}) {
    const auto again = kept->get("/");
    ASSERT_TRUE(again);
    EXPECT_EQ(again->status, 200);
  }
}

TEST(HttpServerConnections, AFullTableClosesTheOldestIdleConnectionForANewOne) {
  auto service = std::make_shared<CountingService>();
  HttpServer server(local({.max_connections = 3}), service);
  server.start();
  std::vector<std::unique_ptr<RawClient>> idle;
  // The oldest has sent nothing since it connected (an attacker's kind of idle); the others wait
  // between requests.
  idle.push_back(std::make_unique<RawClient>(server.port(), "127.0.0.3"));
  for (const char* source : {"127.0.0.4", "127.0.0.5"}) {
    idle.push_back(idle_client(server.port(), source));
  }
  std::vector<std::unique_ptr<RawClient>> fresh;  // kept open: the table stays full
  for (int i = 0; i < 2; ++i) {
    fresh.push_back(std::make_unique<RawClient>(server.port(), "127.0.0.6"));
    const auto reply = fresh.back()->get("/");
    ASSERT_TRUE(reply) << "new connection " << i << " was refused";
    EXPECT_EQ(reply->status, 200);
    EXPECT_TRUE(idle[i]->closed_by_server()) << "idle connection " << i << " still open";
  }
  EXPECT_EQ(service->evicted.load(), 2);
  EXPECT_EQ(service->rejected.load(), 0);
  const auto kept = idle[2]->get("/");
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->status, 200);
}

TEST(HttpServerConnections, AFullTableOfBusyConnectionsRefusesANewOne) {
  auto service = std::make_shared<CountingService>();
  HttpServer server(local({.max_connections = 2}), service);
  server.start();
  RawClient busy1(server.port());
  RawClient busy2(server.port());
  busy1.send("GET / HTTP/1.1\r\n");
  busy2.send("GET / HTTP/1.1\r\n");
  // Both headers begun: the server holds their bytes, so neither is idle any more.
  ASSERT_TRUE(eventually([&] { return server.inflight_bytes() >= 2 * 16 * kKiB; }))
      << server.inflight_bytes();
  RawClient late(server.port());
  EXPECT_TRUE(late.closed_by_server());
  EXPECT_EQ(service->rejected.load(), 1);
  EXPECT_EQ(service->evicted.load(), 0);
}

}  // namespace
}  // namespace vc::server
