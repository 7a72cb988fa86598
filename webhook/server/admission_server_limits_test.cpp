// The admission server under hostile load: connection limits that close idle connections first,
// the bytes-in-flight budget (429), and the size limits of a review (400 naming the limit), each
// counted in vc_webhook_refused_total{reason} or the connection counters.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "webhook/server/admission_server.h"
#include "webhook/server/server_test_util.h"

namespace vc::webhook::server {
namespace {

using test::metric_value;
using test::review_body;
using test::RunningServer;
using test::TlsClient;

std::vector<Endpoint> allow_endpoint() {
  return {{"/test/allow", false, [](auto&, auto&, auto&) { return AdmissionResponse::allow(); }}};
}

double refused(const std::string& reason) {
  return metric_value("vc_webhook_refused_total{reason=\"" + reason + "\"}");
}

// "[{},{},...]" with n elements.
std::string empty_objects(std::size_t n) {
  std::string out = "[";
  for (std::size_t i = 0; i < n; ++i) out += i == 0 ? "{}" : ",{}";
  return out + "]";
}

TEST(AdmissionServerLimits, AFullTableClosesItsOldestIdleConnectionAndRefusesWhenAllAreBusy) {
  RunningServer server(allow_endpoint(), {.max_connections = 2});
  const double rejected = metric_value("vc_webhook_connections_rejected_total");
  const double closed_idle = metric_value("vc_webhook_idle_connections_closed_total");
  auto a = server.connect();
  auto b = server.connect();
  // Both idle after their handshakes: a new connection takes the slot of the oldest.
  auto c = server.connect();
  EXPECT_TRUE(a->wait_closed());
  EXPECT_EQ(metric_value("vc_webhook_idle_connections_closed_total"), closed_idle + 1);
  // b and c begin requests: neither is idle, so a fourth connection is refused.
  ASSERT_TRUE(b->write("POST /test/allow HTTP/1.1\r\n"));
  ASSERT_TRUE(c->write("POST /test/allow HTTP/1.1\r\n"));
  ASSERT_TRUE(test::wait_until([&] { return server.server->inflight_bytes() >= 2 * 16384; }))
      << "the partial requests were not read: " << server.server->inflight_bytes();
  auto fourth = TlsClient::connect(server.port(), server.client_options());
  EXPECT_FALSE(fourth.ok());
  EXPECT_EQ(metric_value("vc_webhook_connections_rejected_total"), rejected + 1);
  // The busy ones finish their requests.
  const std::string body = review_body("u");
  ASSERT_TRUE(b->write("Host: t\r\nContent-Type: application/json\r\nContent-Length: " +
                       std::to_string(body.size()) + "\r\n\r\n" + body));
  const auto reply = b->read_reply();
  ASSERT_TRUE(reply.ok()) << reply.error();
  EXPECT_EQ(reply->status, 200);
}

TEST(AdmissionServerLimits, UploadsOverTheBudgetGet429AtOnceAndSmallReviewsStillPass) {
  AdmissionServerOptions options{.body_limit = 512 * 1024, .max_review_values = 1000};
  options.max_inflight_bytes = 1;  // any bound: min_inflight_bytes is then the smallest allowed
  options.max_inflight_bytes = min_inflight_bytes(options);
  RunningServer server(allow_endpoint(), options);
  const double over_budget = refused("over_budget");
  // Uploads of 300 KiB are large: three fit in half of the budget, a fourth does not.
  constexpr std::size_t kUpload = 300 * 1024;
  const std::string head =
      "POST /test/allow HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
      "Content-Length: " +
      std::to_string(kUpload) + "\r\n\r\n{";
  std::vector<std::unique_ptr<TlsClient>> slow;
  for (std::size_t i = 1; i <= 3; ++i) {
    slow.push_back(server.connect());
    ASSERT_TRUE(slow.back()->write(head));
    ASSERT_TRUE(test::wait_until([&] { return server.server->inflight_bytes() >= i * kUpload; }))
        << "upload " << i << ": " << server.server->inflight_bytes();
  }
  auto fourth = server.connect();
  ASSERT_TRUE(fourth->write(head));
  const auto busy = fourth->read_reply();
  ASSERT_TRUE(busy.ok()) << busy.error();
  EXPECT_EQ(busy->status, 429);
  EXPECT_EQ(busy->header("retry-after"), "1");
  EXPECT_NE(busy->body.find("bytes in flight"), std::string::npos) << busy->body;
  EXPECT_EQ(refused("over_budget"), over_budget + 1);
  EXPECT_LE(server.server->inflight_bytes(), options.max_inflight_bytes);
  // A review of ordinary size still passes.
  auto small = server.connect();
  const auto allowed = small->post("/test/allow", review_body("small"));
  ASSERT_TRUE(allowed.ok()) << allowed.error();
  EXPECT_EQ(allowed->status, 200);
  slow.clear();
  EXPECT_TRUE(test::wait_until([&] { return server.server->inflight_bytes() == 0; }))
      << server.server->inflight_bytes();
}

TEST(AdmissionServerLimits, AReviewOfTooManyValuesIsRefusedNamingTheLimit) {
  RunningServer server(allow_endpoint(), {.max_review_values = 1000});
  const double too_many = refused("too_many_values");
  auto client = server.connect();
  // The fast parser's path, and nlohmann's (a non-ASCII string takes the review there).
  for (const std::string extra : {"", R"(,"name":"caf\u00e9 ü")"}) {
    const auto reply =
        client->post("/test/allow", review_body("u", R"("object":)" + empty_objects(2000) + extra));
    ASSERT_TRUE(reply.ok()) << reply.error();
    EXPECT_EQ(reply->status, 400);
    EXPECT_NE(reply->body.find("too many JSON values: more than 1000 (--max-review-values)"),
              std::string::npos)
        << reply->body;
  }
  EXPECT_EQ(refused("too_many_values"), too_many + 2);
  // Under the limit the same shape is reviewed.
  const auto fine = client->post(
      "/test/allow", review_body("u", R"("object":{"items":)" + empty_objects(900) + "}"));
  ASSERT_TRUE(fine.ok()) << fine.error();
  EXPECT_EQ(fine->status, 200);
}

TEST(AdmissionServerLimits, AReviewNestedTooDeepIsRefusedNamingTheLimit) {
  RunningServer server(allow_endpoint());
  const double too_deep = refused("too_deep");
  auto client = server.connect();
  const auto reply = client->post(
      "/test/allow",
      review_body("u", R"("object":)" + std::string(10001, '[') + std::string(10001, ']')));
  ASSERT_TRUE(reply.ok()) << reply.error();
  EXPECT_EQ(reply->status, 400);
  EXPECT_NE(reply->body.find("exceeded max depth of 10000"), std::string::npos) << reply->body;
  EXPECT_EQ(refused("too_deep"), too_deep + 1);
}

TEST(AdmissionServerOptionsCheck, ABudgetThatCannotHoldTheLargestReviewIsRejected) {
  AdmissionServerOptions options{.cert_file = "c", .key_file = "k"};
  options.max_inflight_bytes = min_inflight_bytes(options) - 1;
  try {
    AdmissionServer s(options, {}, std::make_shared<StaticClusterView>(),
                      std::make_shared<AdmissionOptions>());
    FAIL() << "constructed with a budget below the minimum";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cannot hold one review of the largest size"),
              std::string::npos)
        << e.what();
  }
  // The default fits.
  EXPECT_GE(AdmissionServerOptions{}.max_inflight_bytes,
            min_inflight_bytes(AdmissionServerOptions{}));
}

}  // namespace
}  // namespace vc::webhook::server
