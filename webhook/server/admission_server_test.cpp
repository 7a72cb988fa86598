// The server over real TLS connections on 127.0.0.1: round trips, refusals and limits.
#include "webhook/server/admission_server.h"

#include <sched.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "webhook/server/server_test_util.h"

namespace vc::webhook::server {
namespace {

using test::metric_value;
using test::review_body;
using test::RunningServer;
using test::TlsClient;

constexpr std::string_view kReviewHead =
    R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","response":)";

std::vector<Endpoint> test_endpoints() {
  return {
      {"/test/allow", false, [](auto&, auto&, auto&) { return AdmissionResponse::allow(); }},
      {"/test/deny", false,
       [](auto&, auto&, auto&) { return AdmissionResponse::deny("queue <q1> is closed & full"); }},
      {"/test/mutate", true,
       [](auto&, auto&, auto&) {
         return AdmissionResponse::mutate(
             nlohmann::json::array({{{"op", "add"}, {"path", "/spec/x"}, {"value", 1}}}));
       }},
      {"/test/echo", false,
       [](const AdmissionRequest& r, auto&, auto&) {
         AdmissionResponse out;
         out.warnings = {r.operation, r.namespace_ + "/" + r.name, r.resource.resource,
                         r.object.value("kind", "")};
         return out;
       }},
      {"/test/throw", false,
       [](auto&, auto&, auto&) -> AdmissionResponse {
         throw std::runtime_error("index out of range");
       }},
  };
}

// Every case runs with one worker (connections on the io_context's executor) and with two
// (connections on strands).
class AdmissionServerTest : public ::testing::TestWithParam<int> {
 protected:
  test::HttpReply post(std::string_view target, std::string_view body,
                       std::string_view content_type = "application/json") {
    auto client = server_.connect();
    auto reply = client->post(target, body, content_type);
    if (!reply) throw std::runtime_error(reply.error());
    return *reply;
  }

  RunningServer server_{test_endpoints(), {.threads = GetParam()}};
};

INSTANTIATE_TEST_SUITE_P(Workers, AdmissionServerTest, ::testing::Values(1, 2),
                         [](const auto& info) { return std::to_string(info.param) + "Workers"; });

TEST_P(AdmissionServerTest, AllowedReviewRoundTrips) {
  const auto reply = post("/test/allow", review_body("uid-allowed"));
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.header("content-type"), "application/json");
  EXPECT_EQ(reply.body, std::string(kReviewHead) + R"({"uid":"uid-allowed","allowed":true}})");
}

TEST_P(AdmissionServerTest, DeniedReviewRoundTripsWithGoEscaping) {
  const auto reply = post("/test/deny", review_body("uid-denied"));
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, std::string(kReviewHead) +
                            R"({"uid":"uid-denied","allowed":false,"status":{"metadata":{},)"
                            R"("message":"queue \u003cq1\u003e is closed \u0026 full"}}})");
}

TEST_P(AdmissionServerTest, MutatingReviewRoundTripsWithPatch) {
  const auto reply = post("/test/mutate?timeout=10s", review_body("uid-mutated"));
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, std::string(kReviewHead) +
                            R"({"uid":"uid-mutated","allowed":true,)"
                            R"("patch":"W3sib3AiOiJhZGQiLCJwYXRoIjoiL3NwZWMveCIsInZhbHVlIjoxfV0=",)"
                            R"("patchType":"JSONPatch"}})");
}

TEST_P(AdmissionServerTest, RequestFieldsReachTheAdmitFunctionAndUidIsEchoed) {
  const auto reply = post(
      "/test/echo", review_body("5c0f-uid", R"("operation":"CREATE","namespace":"ns1",)"
                                            R"("name":"j1","resource":{"group":"batch.volcano.sh",)"
                                            R"("version":"v1alpha1","resource":"jobs"},)"
                                            R"("object":{"kind":"Job"})"));
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, std::string(kReviewHead) +
                            R"({"uid":"5c0f-uid","allowed":true,)"
                            R"("warnings":["CREATE","ns1/j1","jobs","Job"]}})");
}

TEST_P(AdmissionServerTest, GarbageBodyGets400) {
  const auto reply = post("/test/allow", "garbage");
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(reply.header("content-type"), "text/plain; charset=utf-8");
  EXPECT_EQ(reply.body,
            "bad AdmissionReview: invalid JSON at offset 1: syntax error while parsing value - "
            "invalid literal; last read: 'g'\n");
}

TEST_P(AdmissionServerTest, ReviewWithoutRequestGets400) {
  const auto reply = post("/test/allow", "{}");
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(reply.body, "bad AdmissionReview: request is missing\n");
}

TEST_P(AdmissionServerTest, V1beta1ReviewGets400) {
  const auto reply = post("/test/allow", R"({"apiVersion":"admission.k8s.io/v1beta1",)"
                                         R"("kind":"AdmissionReview","request":{"uid":"u"}})");
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(reply.body,
            "bad AdmissionReview: apiVersion must be admission.k8s.io/v1, got "
            "\"admission.k8s.io/v1beta1\"\n");
}

TEST_P(AdmissionServerTest, TextPlainGets415) {
  const auto reply = post("/test/allow", review_body("u"), "text/plain");
  EXPECT_EQ(reply.status, 415);
  EXPECT_EQ(reply.body, "unsupported Content-Type \"text/plain\", want application/json\n");
}

TEST_P(AdmissionServerTest, UnknownPathGets404) {
  const auto reply = post("/jobs/unknown", review_body("u"));
  EXPECT_EQ(reply.status, 404);
  EXPECT_EQ(reply.body, "404 page not found\n");
}

TEST_P(AdmissionServerTest, AdmitExceptionGives500AndKeepsServing) {
  auto client = server_.connect();
  auto failed = client->post("/test/throw", review_body("u"));
  ASSERT_TRUE(failed.ok()) << failed.error();
  EXPECT_EQ(failed->status, 500);
  EXPECT_EQ(failed->body, "admission /test/throw failed: index out of range\n");
  auto next = client->post("/test/allow", review_body("u2"));
  ASSERT_TRUE(next.ok()) << next.error();
  EXPECT_EQ(next->status, 200);
}

TEST_P(AdmissionServerTest, BodyOverThreeMebibytesGets413) {
  const double errors =
      metric_value(R"(vc_webhook_admission_requests_total{path="/test/allow",result="error"})");
  auto client = server_.connect();
  const std::string body(3 * 1024 * 1024 + 1, ' ');
  ASSERT_TRUE(client->write(TlsClient::request_text("POST", "/test/allow", body)));
  auto reply = client->read_reply();
  ASSERT_TRUE(reply.ok()) << reply.error();
  EXPECT_EQ(reply->status, 413);
  EXPECT_EQ(reply->body, "request body too large\n");
  EXPECT_EQ(reply->header("connection"), "close");
  EXPECT_TRUE(client->wait_closed());
  EXPECT_EQ(
      metric_value(R"(vc_webhook_admission_requests_total{path="/test/allow",result="error"})"),
      errors + 1);
}

TEST_P(AdmissionServerTest, BodyOfExactlyThreeMebibytesIsRead) {
  // Padding after the review keeps it valid JSON at exactly the limit.
  std::string body = review_body("big");
  body.append(3 * 1024 * 1024 - body.size(), ' ');
  const auto reply = post("/test/allow", body);
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, std::string(kReviewHead) + R"({"uid":"big","allowed":true}})");
}

TEST_P(AdmissionServerTest, HeaderOverLimitGets431) {
  auto client = server_.connect();
  const std::string big = "X-Filler: " + std::string(17 * 1024, 'a') + "\r\n";
  ASSERT_TRUE(client->write(
      TlsClient::request_text("POST", "/test/allow", review_body("u"), "application/json", big)));
  auto reply = client->read_reply();
  ASSERT_TRUE(reply.ok()) << reply.error();
  EXPECT_EQ(reply->status, 431);
  client->close_write();
  EXPECT_TRUE(client->wait_closed());
}

TEST_P(AdmissionServerTest, MalformedRequestGets400AndClose) {
  auto client = server_.connect();
  ASSERT_TRUE(client->write("POST /test/allow HTTP/1.1\r\nContent-Length: x\r\n\r\n"));
  auto reply = client->read_reply();
  ASSERT_TRUE(reply.ok()) << reply.error();
  EXPECT_EQ(reply->status, 400);
  EXPECT_EQ(reply->body.rfind("malformed HTTP request: ", 0), 0u) << reply->body;
  client->close_write();
  EXPECT_TRUE(client->wait_closed());
}

TEST_P(AdmissionServerTest, KeepAliveServesSeveralReviewsOnOneConnection) {
  auto client = server_.connect();
  for (int i = 0; i < 5; ++i) {
    const std::string uid = "keep-" + std::to_string(i);
    auto reply = client->post(i % 2 ? "/test/deny" : "/test/allow", review_body(uid));
    ASSERT_TRUE(reply.ok()) << "request " << i << ": " << reply.error();
    EXPECT_EQ(reply->status, 200);
    EXPECT_NE(reply->body.find("\"uid\":\"" + uid + "\""), std::string::npos) << reply->body;
    EXPECT_NE(reply->header("connection"), "close");
  }
}

TEST_P(AdmissionServerTest, PipelinedRequestsAreAnsweredInOrder) {
  auto client = server_.connect();
  ASSERT_TRUE(client->write(TlsClient::request_text("POST", "/test/allow", review_body("p1")) +
                            TlsClient::request_text("POST", "/test/deny", review_body("p2"))));
  auto first = client->read_reply();
  auto second = client->read_reply();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_NE(first->body.find(R"("uid":"p1","allowed":true)"), std::string::npos);
  EXPECT_NE(second->body.find(R"("uid":"p2","allowed":false)"), std::string::npos);
}

TEST_P(AdmissionServerTest, ExpectContinueGetsAnInterimResponse) {
  auto client = server_.connect();
  const std::string body = review_body("continued");
  std::string head = TlsClient::request_text("POST", "/test/allow", "", "application/json",
                                             "Expect: 100-continue\r\n");
  head.replace(head.find("Content-Length: 0"), 17,
               "Content-Length: " + std::to_string(body.size()));
  ASSERT_TRUE(client->write(head));
  auto interim = client->read_reply();
  ASSERT_TRUE(interim.ok()) << interim.error();
  EXPECT_EQ(interim->status, 100);
  ASSERT_TRUE(client->write(body));
  auto reply = client->read_reply();
  ASSERT_TRUE(reply.ok()) << reply.error();
  EXPECT_EQ(reply->status, 200);
  EXPECT_NE(reply->body.find(R"("uid":"continued")"), std::string::npos);
}

TEST(AdmissionServerLimits, SlowHeaderIsClosedAfterTheHeaderTimeout) {
  RunningServer server(test_endpoints(), {.header_timeout = std::chrono::milliseconds(300)});
  const double before =
      metric_value(R"(vc_webhook_protocol_errors_total{reason="header_timeout"})");
  auto client = server.connect();
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(client->write("POST /test/allow HTTP/1.1\r\nHost: x\r\n"));  // and nothing more
  EXPECT_TRUE(client->wait_closed());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_TRUE(test::wait_until([&] {
    return metric_value(R"(vc_webhook_protocol_errors_total{reason="header_timeout"})") ==
           before + 1;
  }));
}

TEST(AdmissionServerLimits, AHeaderTrickledInIsClosedAtItsDeadlineNotAtEachRead) {
  // Each byte arrives well within the timeout; the header as a whole does not.
  RunningServer server(test_endpoints(), {.header_timeout = std::chrono::milliseconds(600)});
  auto client = server.connect();
  const std::string head = "POST /test/allow HTTP/1.1\r\nHost: x\r\nX-Slow: ";
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(client->write(head));
  bool closed = false;
  // 40 more bytes, one every 100 ms: 4 s unless the server closes at its 600 ms deadline.
  for (int i = 0; i < 40 && !closed; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    closed =
        !client->write("a") || std::chrono::steady_clock::now() - start > std::chrono::seconds(3);
  }
  EXPECT_TRUE(client->wait_closed());
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, std::chrono::milliseconds(2500))
      << "closed after " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
      << " ms";
}

TEST(AdmissionServerLimits, SlowBodyIsClosedAfterTheBodyTimeout) {
  RunningServer server(test_endpoints(), {.body_timeout = std::chrono::milliseconds(300)});
  const double before = metric_value(R"(vc_webhook_protocol_errors_total{reason="body_timeout"})");
  auto client = server.connect();
  const auto start = std::chrono::steady_clock::now();
  std::string text = TlsClient::request_text("POST", "/test/allow", review_body("slow"));
  text.resize(text.size() - 10);  // the body's last 10 bytes never come
  ASSERT_TRUE(client->write(text));
  EXPECT_TRUE(client->wait_closed());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_TRUE(test::wait_until([&] {
    return metric_value(R"(vc_webhook_protocol_errors_total{reason="body_timeout"})") == before + 1;
  }));
}

TEST(AdmissionServerLimits, ARequestSentInPiecesIsReadWhole) {
  RunningServer server(test_endpoints(), {});
  auto client = server.connect();
  const std::string text = TlsClient::request_text("POST", "/test/allow", review_body("pieces"));
  // Inside the request line, inside the header, at the header's end, inside the body.
  const std::size_t header_end = text.find("\r\n\r\n") + 4;
  std::size_t from = 0;
  for (const std::size_t cut : {std::size_t{6}, header_end / 2, header_end, header_end + 5}) {
    ASSERT_TRUE(client->write(std::string_view(text).substr(from, cut - from)));
    from = cut;
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  ASSERT_TRUE(client->write(std::string_view(text).substr(from)));
  auto reply = client->read_reply();
  ASSERT_TRUE(reply.ok()) << reply.error();
  EXPECT_EQ(reply->status, 200);
  EXPECT_NE(reply->body.find(R"("uid":"pieces","allowed":true)"), std::string::npos) << reply->body;
}

TEST(AdmissionServerLimits, IdleKeepAliveConnectionIsClosedAfterTheIdleTimeout) {
  RunningServer server(test_endpoints(), {.idle_timeout = std::chrono::milliseconds(300)});
  auto client = server.connect();
  auto reply = client->post("/test/allow", review_body("u"));
  ASSERT_TRUE(reply.ok()) << reply.error();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(client->wait_closed());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(AdmissionServerOptionsCheck, MistakesAreRejectedAtConstruction) {
  const auto make = [](AdmissionServerOptions o) {
    AdmissionServer s(std::move(o), {}, std::make_shared<StaticClusterView>(),
                      std::make_shared<AdmissionOptions>());
  };
  EXPECT_THROW(make({.port = 70000, .cert_file = "c", .key_file = "k"}), std::invalid_argument);
  EXPECT_THROW(make({.port = 1}), std::invalid_argument);
  EXPECT_THROW(make({.cert_file = "c", .key_file = "k", .body_limit = 0}), std::invalid_argument);
  EXPECT_THROW(make({.cert_file = "c", .key_file = "k", .busy_poll = kMaxBusyPoll * 2}),
               std::invalid_argument);
  EXPECT_THROW(
      make({.cert_file = "c", .key_file = "k", .busy_poll = std::chrono::microseconds(-1)}),
      std::invalid_argument);
  EXPECT_NO_THROW(make({.cert_file = "c", .key_file = "k", .busy_poll = kMaxBusyPoll}));
}

TEST(AdmissionServerOptionsCheck, UnreadableCertificateFailsStart) {
  AdmissionServer s(
      {.port = 0, .cert_file = "missing-dir/tls.crt", .key_file = "missing-dir/tls.key"}, {},
      std::make_shared<StaticClusterView>(), std::make_shared<AdmissionOptions>());
  try {
    s.start();
    FAIL() << "start succeeded without certificate files";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing-dir/tls.crt"), std::string::npos) << e.what();
  }
}

TEST(AdmissionServerOptionsCheck, WorkerPoolHasOneThreadPerAllowedCpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  EXPECT_EQ(default_worker_threads(), CPU_COUNT(&set));
}

}  // namespace
}  // namespace vc::webhook::server
