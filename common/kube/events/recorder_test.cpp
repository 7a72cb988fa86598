#include "common/kube/events/recorder.h"

#include <deque>
#include <map>
#include <mutex>

#include <gtest/gtest.h>

#include "common/kube/events/fake_recorder.h"
#include "common/metrics/registry.h"
#include "common/testing/fake_apiserver.h"

namespace vc::kube::events {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using vc::testing::Reply;
using vc::testing::Request;
using vc::testing::Response;

// Events stored behind a FakeApiServer: POST creates (409 if the name exists), PATCH applies a
// JSON merge patch (404 if absent). Scripted answers for the next POSTs inject faults.
class FakeEventServer {
 public:
  FakeEventServer() {
    server_.handle_prefix("POST", "/api/v1/namespaces/", [this](const Request& r) -> Reply {
      std::lock_guard lock(mu_);
      if (!post_script_.empty()) {
        Response scripted = std::move(post_script_.front());
        post_script_.pop_front();
        if (scripted.status != 0) return scripted;
      }
      json body = r.json();
      const std::string key = body["metadata"]["namespace"].get<std::string>() + "/" +
                              body["metadata"]["name"].get<std::string>();
      if (events_.count(key)) return Response::error(409, "AlreadyExists", key + " exists");
      events_[key] = body;
      return Response::json(201, body);
    });
    server_.handle_prefix("PATCH", "/api/v1/namespaces/", [this](const Request& r) -> Reply {
      std::lock_guard lock(mu_);
      // /api/v1/namespaces/<ns>/events/<name>
      const std::string rest = r.path.substr(std::string("/api/v1/namespaces/").size());
      const std::string ns = rest.substr(0, rest.find('/'));
      const std::string name = rest.substr(rest.rfind('/') + 1);
      const auto it = events_.find(ns + "/" + name);
      if (it == events_.end()) return Response::error(404, "NotFound", name + " not found");
      it->second.merge_patch(r.json());
      return Response::json(200, it->second);
    });
  }

  std::unique_ptr<Client> client() const {
    ClientOptions o;
    o.request_timeout = 2s;
    o.max_retries = 0;  // the recorder's own retries are under test
    return std::make_unique<Client>(server_.config(), o);
  }

  // The next POST answers r instead of storing (status 0 = store as usual).
  void script_post(Response r) {
    std::lock_guard lock(mu_);
    post_script_.push_back(std::move(r));
  }

  std::map<std::string, json> events() const {
    std::lock_guard lock(mu_);
    return events_;
  }

  void erase_all() {
    std::lock_guard lock(mu_);
    events_.clear();
  }

  vc::testing::FakeApiServer& server() { return server_; }

 private:
  mutable std::mutex mu_;
  std::map<std::string, json> events_;  // "ns/name" -> Event
  std::deque<Response> post_script_;
  vc::testing::FakeApiServer server_;  // last: stopped before the state its handlers use
};

class ManualClock {
 public:
  std::function<WallTime()> fn() {
    return [this] {
      std::lock_guard lock(mu_);
      return t_;
    };
  }
  void step(std::chrono::seconds d) {
    std::lock_guard lock(mu_);
    t_ += d;
  }

 private:
  std::mutex mu_;
  WallTime t_{std::chrono::seconds(1700000000)};
};

const ObjectReference kJob{"Job", "team-a", "train", "uid-1", "batch.volcano.sh/v1alpha1", "7", ""};

class RecorderTest : public ::testing::Test {
 protected:
  RecorderOptions options() {
    RecorderOptions o;
    o.source.component = "vc-controller-manager";
    o.retry_delay = 10ms;
    o.now = clock_.fn();
    return o;
  }
  std::string requests() { return server_.server().describe_requests(); }

  ManualClock clock_;
  FakeEventServer server_;
  std::unique_ptr<Client> client_ = server_.client();
};

TEST_F(RecorderTest, FirstOccurrenceCreatesThenRepeatsPatchTheCount) {
  AsyncEventRecorder recorder(*client_, options());
  for (int i = 0; i < 3; ++i) {
    recorder.event(kJob, EventType::Warning, "PodGroupPending", "3/4 tasks in gang unschedulable");
    ASSERT_TRUE(recorder.flush(5s));
    clock_.step(1s);
  }
  const auto log = server_.server().requests();
  ASSERT_EQ(log.size(), 3u) << requests();
  EXPECT_EQ(log[0].method, "POST");
  EXPECT_EQ(log[0].path, "/api/v1/namespaces/team-a/events");
  EXPECT_EQ(log[1].method, "PATCH");
  EXPECT_EQ(log[1].header("content-type"), "application/merge-patch+json");
  EXPECT_EQ(log[1].json()["count"], 2);
  EXPECT_EQ(log[2].json()["count"], 3);
  EXPECT_EQ(log[1].path, log[2].path);

  const auto stored = server_.events();
  ASSERT_EQ(stored.size(), 1u);
  const json& ev = stored.begin()->second;
  EXPECT_EQ(stored.begin()->first, "team-a/" + event_name("train", WallTime(1700000000s)));
  EXPECT_EQ(ev["count"], 3);
  EXPECT_EQ(ev["firstTimestamp"], "2023-11-14T22:13:20Z");
  EXPECT_EQ(ev["lastTimestamp"], "2023-11-14T22:13:22Z");
  EXPECT_EQ(ev["involvedObject"]["uid"], "uid-1");
  EXPECT_EQ(ev["source"]["component"], "vc-controller-manager");
  EXPECT_EQ(recorder.dropped(), 0u);
}

TEST_F(RecorderTest, DifferentMessagesAreSeparateEvents) {
  AsyncEventRecorder recorder(*client_, options());
  recorder.event(kJob, EventType::Normal, "Created", "created pod train-a-0");
  clock_.step(1s);
  recorder.event(kJob, EventType::Normal, "Created", "created pod train-a-1");
  ASSERT_TRUE(recorder.flush(5s));
  EXPECT_EQ(server_.events().size(), 2u) << requests();
}

TEST_F(RecorderTest, DeletedEventIsRecreatedWithItsNameAndCount) {
  AsyncEventRecorder recorder(*client_, options());
  recorder.event(kJob, EventType::Warning, "Failed", "boom");
  ASSERT_TRUE(recorder.flush(5s));
  server_.erase_all();
  clock_.step(1s);
  recorder.event(kJob, EventType::Warning, "Failed", "boom");
  ASSERT_TRUE(recorder.flush(5s));
  const auto stored = server_.events();
  ASSERT_EQ(stored.size(), 1u) << requests();
  EXPECT_EQ(stored.begin()->second["count"], 2);
  const auto log = server_.server().requests();
  ASSERT_EQ(log.size(), 3u) << requests();
  EXPECT_EQ(log[1].method, "PATCH");
  EXPECT_EQ(log[2].method, "POST");
}

TEST_F(RecorderTest, EventsInTheSameClockTickGetDistinctNames) {
  AsyncEventRecorder recorder(*client_, options());
  recorder.event(kJob, EventType::Normal, "Created", "a");
  recorder.event(kJob, EventType::Normal, "Created", "b");  // clock_ has not moved
  ASSERT_TRUE(recorder.flush(5s));
  const auto stored = server_.events();
  ASSERT_EQ(stored.size(), 2u) << requests();
  EXPECT_EQ(stored.count("team-a/" + event_name("train", WallTime(1700000000s))), 1u);
  EXPECT_EQ(stored.count("team-a/" + event_name("train", WallTime(1700000000s) + 1ns)), 1u);
  EXPECT_EQ(recorder.dropped(), 0u);
}

TEST_F(RecorderTest, RetryableFailureIsRetried) {
  server_.script_post(Response::error(500, "InternalError", "etcd hiccup"));
  server_.script_post(Response::error(503, "ServiceUnavailable", "again"));
  AsyncEventRecorder recorder(*client_, options());
  recorder.event(kJob, EventType::Normal, "Created", "ok");
  ASSERT_TRUE(recorder.flush(5s));
  EXPECT_EQ(server_.server().requests().size(), 3u) << requests();
  EXPECT_EQ(server_.events().size(), 1u);
  EXPECT_EQ(recorder.dropped(), 0u);
}

TEST_F(RecorderTest, RejectedEventIsDroppedWithoutRetry) {
  server_.script_post(Response::error(422, "Invalid", "bad event"));
  AsyncEventRecorder recorder(*client_, options());
  recorder.event(kJob, EventType::Normal, "Created", "ok");
  ASSERT_TRUE(recorder.flush(5s));
  EXPECT_EQ(server_.server().requests().size(), 1u) << requests();
  EXPECT_EQ(recorder.dropped(), 1u);
  EXPECT_NE(vc::metrics::render_text().find("event_recorder_dropped_total{reason=\"rejected\"}"),
            std::string::npos);
}

TEST_F(RecorderTest, FullQueueDropsAndCounts) {
  // The first create is answered late, so the sender is busy while the queue fills.
  Response slow;
  slow.status = 201;
  slow.body = "{}";
  slow.delay = 1000ms;
  server_.script_post(slow);
  RecorderOptions o = options();
  o.queue_capacity = 2;
  AsyncEventRecorder recorder(*client_, o);
  recorder.event(kJob, EventType::Normal, "R", "m0");
  ASSERT_TRUE(server_.server().wait_for_requests(1, 5s)) << "the sender never sent";
  recorder.event(kJob, EventType::Normal, "R", "m1");
  recorder.event(kJob, EventType::Normal, "R", "m2");
  recorder.event(kJob, EventType::Normal, "R", "m3");  // queue holds m1, m2: dropped
  EXPECT_EQ(recorder.dropped(), 1u);
  ASSERT_TRUE(recorder.flush(5s));
  EXPECT_EQ(server_.server().requests().size(), 3u) << requests();
  EXPECT_NE(vc::metrics::render_text().find("event_recorder_dropped_total{reason=\"queue_full\"}"),
            std::string::npos);
}

TEST_F(RecorderTest, StopSendsWhatIsQueued) {
  auto recorder = std::make_unique<AsyncEventRecorder>(*client_, options());
  for (int i = 0; i < 5; ++i) {
    recorder->event(kJob, EventType::Normal, "Created", "pod " + std::to_string(i));
  }
  recorder->stop();
  EXPECT_EQ(server_.events().size(), 5u) << requests();
  recorder->event(kJob, EventType::Normal, "Created", "after stop");
  EXPECT_EQ(recorder->dropped(), 1u);
}

TEST(RecorderOptions, ComponentIsRequired) {
  FakeEventServer server;
  auto client = server.client();
  EXPECT_THROW(AsyncEventRecorder(*client, RecorderOptions{}), std::invalid_argument);
}

TEST(FakeRecorder, KeepsEventsInOrder) {
  FakeRecorder r;
  EventRecorder& base = r;
  base.event(kJob, EventType::Warning, "PodGroupPending", "waiting");
  base.event(kJob, EventType::Normal, "Created", "done");
  EXPECT_EQ(r.lines(),
            (std::vector<std::string>{"Warning PodGroupPending waiting", "Normal Created done"}));
  EXPECT_EQ(r.events()[0].object.name, "train");
}

}  // namespace
}  // namespace vc::kube::events
