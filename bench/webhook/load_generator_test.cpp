#include "bench/webhook/load_generator.h"

#include <atomic>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/testing/fake_apiserver.h"
#include "common/testing/temp_dir.h"

namespace vc::bench {
namespace {

using std::chrono::milliseconds;
using vc::testing::FakeApiServer;
using vc::testing::Request;
using vc::testing::Response;

constexpr const char* kReview =
    R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",
        "request":{"uid":"x","kind":{"kind":"Job"},"operation":"CREATE","object":{}}})";

nlohmann::json answer(const std::string& uid, bool allowed, const std::string& message = "") {
  nlohmann::json response = {{"uid", uid}, {"allowed", allowed}};
  if (!message.empty())
    response["status"] = {{"metadata", nlohmann::json::object()}, {"message", message}};
  return {
      {"kind", "AdmissionReview"}, {"apiVersion", "admission.k8s.io/v1"}, {"response", response}};
}

std::string request_uid(const Request& r) {
  return r.json()["request"]["uid"];
}

class LoadGeneratorTest : public ::testing::Test {
 protected:
  LoadGeneratorTest() : server_({.tls = true}) {}

  LoadOptions options(std::vector<std::pair<std::string, bool>> targets) {
    LoadOptions o;
    o.port = server_.port();
    o.ca_file = dir_.write("ca.crt", server_.ca_pem());
    for (auto& [path, allowed] : targets) {
      o.targets.push_back({path, "review.json", ReviewTemplate::parse(kReview), allowed});
    }
    o.warmup = milliseconds(100);
    o.duration = milliseconds(300);
    o.request_timeout = milliseconds(5000);
    return o;
  }

  FakeApiServer server_;
  vc::testing::TempDir dir_;
};

TEST_F(LoadGeneratorTest, CorrectAnswersOnKeptAliveConnectionsAreMeasuredWithoutErrors) {
  std::mutex mu;
  std::multiset<std::string> uids;
  auto echo = [&](const Request& r) {
    const std::string uid = request_uid(r);
    {
      std::lock_guard lock(mu);
      uids.insert(uid);
    }
    return Response::json(200, answer(uid, true));
  };
  server_.handle("POST", "/jobs/mutate", echo);
  server_.handle("POST", "/queues/validate", echo);
  auto o = options({{"/jobs/mutate", true}, {"/queues/validate", true}});
  o.concurrency = 3;

  const LoadResult r = run_load(o);

  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(r.warmup_errors, 0u);
  EXPECT_TRUE(r.error_samples.empty()) << r.error_samples.front();
  EXPECT_GT(r.requests, 0u);
  EXPECT_EQ(r.latency.count(), r.requests);
  EXPECT_EQ(r.connections_opened, 3u) << "connections must be kept alive";
  EXPECT_EQ(server_.connections_accepted(), 3);
  ASSERT_EQ(r.per_target.size(), 2u);
  EXPECT_EQ(r.per_target[0].requests + r.per_target[1].requests, r.requests);
  EXPECT_GT(r.per_target[0].requests, 0u);
  EXPECT_GT(r.per_target[1].requests, 0u);
  EXPECT_EQ(r.window, milliseconds(300));
  std::lock_guard lock(mu);
  EXPECT_GE(uids.size(), r.requests + r.warmup_requests);
  for (const auto& uid : uids) ASSERT_EQ(uids.count(uid), 1u) << "uid sent twice: " << uid;
  const auto sent = server_.requests().front();
  EXPECT_EQ(sent.header("content-type"), "application/json");
}

TEST_F(LoadGeneratorTest, WrongUidUnexpectedVerdictAndHttpErrorsAreCountedAndSampled) {
  server_.handle("POST", "/wrong-uid", [](const Request&) {
    return Response::json(200, answer("not-the-request-uid", true));
  });
  server_.handle("POST", "/denies", [](const Request& r) {
    return Response::json(200, answer(request_uid(r), false, "queue is closed"));
  });
  server_.handle("POST", "/fails",
                 [](const Request&) { return Response::text(500, "internal error"); });
  auto o = options({{"/wrong-uid", true}, {"/denies", true}, {"/fails", true}});
  o.max_error_samples = 30;

  const LoadResult r = run_load(o);

  EXPECT_EQ(r.requests, 0u);
  EXPECT_GT(r.errors, 0u);
  ASSERT_EQ(r.per_target.size(), 3u);
  for (const auto& t : r.per_target) EXPECT_GT(t.errors, 0u);
  EXPECT_EQ(r.per_target[0].errors + r.per_target[1].errors + r.per_target[2].errors, r.errors);
  ASSERT_EQ(r.error_samples.size(), 30u);
  const auto sampled = [&](const std::string& text) {
    for (const auto& s : r.error_samples) {
      if (s.find(text) != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(sampled("POST /wrong-uid (review.json): response.uid 'not-the-request-uid'"));
  EXPECT_TRUE(
      sampled("POST /denies (review.json): allowed=false, expected allowed: queue is closed"));
  EXPECT_TRUE(sampled("POST /fails (review.json): HTTP 500: internal error"));
  EXPECT_EQ(r.connections_opened, 1u) << "answers with errors keep the connection";
}

TEST_F(LoadGeneratorTest, ExpectedDenialIsNotAnError) {
  server_.handle("POST", "/queues/validate", [](const Request& r) {
    return Response::json(200, answer(request_uid(r), false, "`default` queue can not be deleted"));
  });
  const LoadResult r = run_load(options({{"/queues/validate", false}}));
  EXPECT_EQ(r.errors, 0u);
  EXPECT_GT(r.requests, 0u);
}

TEST_F(LoadGeneratorTest, ConnectionClosedByTheServerIsReopenedWithoutAnError) {
  server_.handle("POST", "/jobs/validate", [](const Request& r) {
    Response res = Response::json(200, answer(request_uid(r), true));
    res.close_connection = true;
    return res;
  });
  const LoadResult r = run_load(options({{"/jobs/validate", true}}));
  EXPECT_EQ(r.errors + r.warmup_errors, 0u) << r.error_samples.front();
  EXPECT_GT(r.requests, 1u);
  EXPECT_GE(r.connections_opened, r.requests);
}

TEST_F(LoadGeneratorTest, UnreachableServerCountsConnectErrorsAndRetries) {
  auto o = options({{"/jobs/mutate", true}});
  {
    FakeApiServer gone({.tls = true});
    o.port = gone.port();
  }  // nothing listens there any more
  o.warmup = milliseconds(0);
  const LoadResult r = run_load(o);
  EXPECT_EQ(r.requests, 0u);
  EXPECT_EQ(r.connections_opened, 0u);
  EXPECT_GE(r.errors, 2u) << "a failed connection retries after a pause";
  ASSERT_FALSE(r.error_samples.empty());
  EXPECT_NE(r.error_samples.front().find("connection 0: connect: "), std::string::npos)
      << r.error_samples.front();
}

TEST_F(LoadGeneratorTest, UntrustedCertificateIsAHandshakeError) {
  server_.handle("POST", "/jobs/mutate", [](const Request& r) {
    return Response::json(200, answer(request_uid(r), true));
  });
  auto o = options({{"/jobs/mutate", true}});
  FakeApiServer other({.tls = true});  // a different CA
  o.ca_file = dir_.write("other-ca.crt", other.ca_pem());
  o.warmup = milliseconds(0);
  const LoadResult r = run_load(o);
  EXPECT_EQ(r.requests, 0u);
  EXPECT_GT(r.errors, 0u);
  ASSERT_FALSE(r.error_samples.empty());
  EXPECT_NE(r.error_samples.front().find("TLS handshake"), std::string::npos)
      << r.error_samples.front();
}

TEST_F(LoadGeneratorTest, WindowHooksRunOnceEachInOrder) {
  server_.handle("POST", "/jobs/mutate", [](const Request& r) {
    return Response::json(200, answer(request_uid(r), true));
  });
  auto o = options({{"/jobs/mutate", true}});
  std::string calls;
  o.on_window_start = [&] { calls += "start;"; };
  o.on_window_end = [&] { calls += "end;"; };
  run_load(o);
  EXPECT_EQ(calls, "start;end;");
}

// With busy_poll the client thread keeps polling while it waits for a slow answer; without it,
// it sleeps. The process's CPU seconds over the window tell the two apart (they include the
// in-process server's, which is the same in both runs).
TEST_F(LoadGeneratorTest, BusyPollingClientSpinsWhileWaitingAndStillMeasuresEveryAnswer) {
  server_.handle("POST", "/jobs/mutate", [](const Request& r) {
    std::this_thread::sleep_for(milliseconds(50));
    return Response::json(200, answer(request_uid(r), true));
  });
  auto o = options({{"/jobs/mutate", true}});
  o.duration = milliseconds(500);
  const LoadResult sleeping = run_load(o);
  o.busy_poll = std::chrono::seconds(1);
  const LoadResult polling = run_load(o);

  for (const LoadResult* r : {&sleeping, &polling}) {
    EXPECT_EQ(r->errors + r->warmup_errors, 0u);
    EXPECT_GE(r->requests, 5u);
    EXPECT_EQ(r->latency.count(), r->requests);
  }
  // Waiting 500 ms on 50 ms answers, the polling client spends the window polling; a third of it
  // leaves room for a machine busy with other tests.
  EXPECT_GT(polling.client_cpu_seconds - sleeping.client_cpu_seconds, 0.16)
      << "sleeping " << sleeping.client_cpu_seconds << " s, polling " << polling.client_cpu_seconds
      << " s";
}

TEST(LoadGeneratorOptions, UnusableOptionsAreRejected) {
  LoadOptions o;
  o.port = 1;
  EXPECT_THROW(run_load(o), std::invalid_argument);  // no targets
  o.targets.push_back({"/p", "r", ReviewTemplate::parse(kReview), true});
  o.concurrency = 0;
  EXPECT_THROW(run_load(o), std::invalid_argument);
  o.concurrency = 1;
  o.busy_poll = std::chrono::microseconds(-1);
  EXPECT_THROW(run_load(o), std::invalid_argument);
  o.busy_poll = {};
  o.ca_file = "/nonexistent/ca.crt";
  EXPECT_THROW(run_load(o), std::runtime_error);
}

}  // namespace
}  // namespace vc::bench
