// Graceful shutdown: reviews in flight finish, idle connections get a drain window, the grace
// period holds.
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <future>
#include <mutex>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "webhook/server/admission_server.h"
#include "webhook/server/server_test_util.h"

namespace vc::webhook::server {
namespace {

using test::review_body;
using test::RunningServer;
using test::TlsClient;

// The threads of this process, from /proc: a detached thread counts until it has fully exited,
// thread-local destructors (OpenSSL's per-thread state among them) included.
std::size_t thread_count() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/task")) ++n;
  return n;
}

// A gate an admit function waits on: the test sees when the review has entered, and decides when
// it may leave.
struct Gate {
  void enter_and_wait() {
    std::unique_lock lock(mu);
    entered = true;
    cv.notify_all();
    cv.wait(lock, [&] { return open; });
  }
  bool wait_entered(std::chrono::seconds timeout = std::chrono::seconds(10)) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, timeout, [&] { return entered; });
  }
  void release() {
    std::lock_guard lock(mu);
    open = true;
    cv.notify_all();
  }

  std::mutex mu;
  std::condition_variable cv;
  bool entered = false;
  bool open = false;
};

std::vector<Endpoint> gated_endpoints(const std::shared_ptr<Gate>& gate) {
  return {{"/test/slow", false,
           [gate](auto&, auto&, auto&) {
             gate->enter_and_wait();
             return AdmissionResponse::deny("finished late");
           }},
          {"/test/allow", false, [](auto&, auto&, auto&) { return AdmissionResponse::allow(); }}};
}

TEST(AdmissionServerShutdown, StopFinishesAnInFlightReviewBeforeReturning) {
  auto gate = std::make_shared<Gate>();
  RunningServer server(gated_endpoints(gate));
  auto client = server.connect();
  ASSERT_TRUE(client->write(TlsClient::request_text("POST", "/test/slow", review_body("slow-1"))));
  ASSERT_TRUE(gate->wait_entered()) << "the review never reached the admit function";

  auto stopped = std::async(std::launch::async, [&] { return server.server->stop(); });
  // Stopping closes the listener first: new connections are refused.
  EXPECT_TRUE(test::wait_until([&] {
    return !TlsClient::connect(server.port(), server.client_options()).ok();
  })) << "the listener still accepts";
  EXPECT_EQ(stopped.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout)
      << "stop() returned while a review was in flight";

  gate->release();
  auto reply = client->read_reply();
  ASSERT_TRUE(reply.ok()) << reply.error();
  EXPECT_EQ(reply->status, 200);
  EXPECT_NE(reply->body.find(R"("uid":"slow-1","allowed":false)"), std::string::npos);
  EXPECT_EQ(reply->header("connection"), "close");
  ASSERT_EQ(stopped.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_TRUE(stopped.get());
}

TEST(AdmissionServerShutdown, StopClosesConnectionsStillIdleAfterTheDrainWindow) {
  auto gate = std::make_shared<Gate>();
  RunningServer server(gated_endpoints(gate), {.graceful_shutdown = std::chrono::seconds(20),
                                               .stop_idle_drain = std::chrono::milliseconds(300)});
  auto idle = server.connect();
  auto reply = idle->post("/test/allow", review_body("u"));
  ASSERT_TRUE(reply.ok()) << reply.error();
  auto fresh = server.connect();  // handshake done, no request yet

  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(server.server->stop());
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_GE(took, std::chrono::milliseconds(300)) << "idle connections were not given the window";
  EXPECT_LT(took, std::chrono::seconds(5));
  EXPECT_TRUE(idle->wait_closed());
  EXPECT_TRUE(fresh->wait_closed());
  EXPECT_TRUE(server.server->stop()) << "a second stop() is a no-op";
}

// What an API server does while a webhook replica stops: it sends its next review on a
// connection it already has. That review is answered, with "Connection: close", and stop() ends
// as soon as no connection is left, long before the drain window would.
TEST(AdmissionServerShutdown, StopAnswersTheNextRequestOfAnIdleConnectionAndClosesIt) {
  auto gate = std::make_shared<Gate>();
  RunningServer server(gated_endpoints(gate), {.graceful_shutdown = std::chrono::seconds(20),
                                               .stop_idle_drain = std::chrono::seconds(20)});
  auto idle = server.connect();
  auto first = idle->post("/test/allow", review_body("before"));
  ASSERT_TRUE(first.ok()) << first.error();
  auto fresh = server.connect();  // handshake done, no request yet

  const auto start = std::chrono::steady_clock::now();
  auto stopped = std::async(std::launch::async, [&] { return server.server->stop(); });
  ASSERT_TRUE(test::wait_until([&] {
    return !TlsClient::connect(server.port(), server.client_options()).ok();
  })) << "the listener still accepts";

  for (auto* client : {&idle, &fresh}) {
    auto reply = (*client)->post("/test/allow", review_body("during-stop"));
    ASSERT_TRUE(reply.ok()) << reply.error();
    EXPECT_EQ(reply->status, 200);
    EXPECT_NE(reply->body.find(R"("uid":"during-stop","allowed":true)"), std::string::npos);
    EXPECT_EQ(reply->header("connection"), "close");
    EXPECT_TRUE((*client)->wait_closed());
  }
  ASSERT_EQ(stopped.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_TRUE(stopped.get());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(AdmissionServerShutdown, StopGivesUpAfterTheGracePeriodWhenAnAdmitIsStuck) {
  auto gate = std::make_shared<Gate>();
  const std::weak_ptr<Gate> watch = gate;
  const std::size_t threads_before = thread_count();
  {
    RunningServer server(gated_endpoints(gate),
                         {.graceful_shutdown = std::chrono::milliseconds(200)});
    auto client = server.connect();
    ASSERT_TRUE(client->write(TlsClient::request_text("POST", "/test/slow", review_body("stuck"))));
    ASSERT_TRUE(gate->wait_entered());
    const auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(server.server->stop());
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  }
  // The worker left inside the admit function finishes once released, and then frees the server
  // state it kept alive, including the endpoint that holds the gate.
  gate->release();
  gate.reset();
  EXPECT_TRUE(test::wait_until([&] { return watch.expired(); }))
      << "the server state was not freed after the stuck admit function returned";
  // The worker stop() left behind exits too. Waiting for it keeps its last steps (freeing its
  // thread's TLS state) from racing the leak check at process exit.
  std::size_t threads_now = 0;
  EXPECT_TRUE(test::wait_until([&] { return (threads_now = thread_count()) <= threads_before; }))
      << "threads before the server: " << threads_before << ", still running: " << threads_now;
}

TEST(AdmissionServerShutdown, StopBeforeStartIsHarmless) {
  AdmissionServer s({.port = 0, .cert_file = "c", .key_file = "k"}, {},
                    std::make_shared<StaticClusterView>(), std::make_shared<AdmissionOptions>());
  EXPECT_TRUE(s.stop());
  EXPECT_THROW(s.start(), std::logic_error);
}

}  // namespace
}  // namespace vc::webhook::server
