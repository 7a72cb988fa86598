// Watch streams against the fake API server: events, errors, resets, chunking, cancellation.

#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <thread>

#include "common/kube/client.h"
#include "common/testing/fake_apiserver.h"

namespace vc::kube {
namespace {

using namespace std::chrono_literals;
using vc::testing::FakeApiServer;
using vc::testing::Reply;
using vc::testing::Request;
using vc::testing::Response;
using vc::testing::ResponseStream;
using vc::testing::StreamQueue;

json pod(const std::string& name, const std::string& rv) {
  return {{"kind", "Pod"}, {"metadata", {{"name", name}, {"resourceVersion", rv}}}};
}

// Collects events delivered on the watch thread; the test thread waits on them.
class EventLog {
 public:
  void add(WatchEvent&& ev) {
    std::lock_guard lock(mu_);
    events_.push_back(std::move(ev));
    times_.push_back(std::chrono::steady_clock::now());
    cv_.notify_all();
  }
  // When each event was delivered.
  std::vector<std::chrono::steady_clock::time_point> times() {
    std::lock_guard lock(mu_);
    return times_;
  }
  bool wait_for(std::size_t n, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, timeout, [&] { return events_.size() >= n; });
  }
  std::vector<WatchEvent> events() {
    std::lock_guard lock(mu_);
    return events_;
  }
  std::vector<std::string> names() {
    std::vector<std::string> out;
    for (auto& e : events()) out.push_back(e.object["metadata"].value("name", "?"));
    return out;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<WatchEvent> events_;
  std::vector<std::chrono::steady_clock::time_point> times_;
};

// Every case runs over plain HTTP and over TLS (the API server's transport, tls_socket.h).
class WatchTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    server_.handle("GET", "/api/v1/namespaces/ns/pods", [this](const Request& r) -> Reply {
      if (r.param("watch") != "1") return Response::error(400, "BadRequest", "not a watch");
      return streams_.open();
    });
  }

  // Stops every watch still running (e.g. after a failed assertion) before the fixture dies.
  void TearDown() override {
    stop_.request_stop();
    watches_.clear();
  }

  // Starts a watch on another thread, stopped by stop_; its Status arrives through the future.
  std::shared_future<Status> start(WatchOptions o = {}) { return start_on(client_, o); }
  std::shared_future<Status> start_on(Client& client, WatchOptions o = {}) {
    auto f = std::async(std::launch::async, [this, &client, o] {
               return client.watch(
                   resources::pods, "ns", o, [this](WatchEvent&& ev) { log_.add(std::move(ev)); },
                   stop_.get_token());
             }).share();
    watches_.push_back(f);
    return f;
  }

  // A watch on a client whose watches pause `pause` after each read that drained the stream
  // (ClientOptions::watch_read_pause); returns its server-side stream.
  std::shared_ptr<ResponseStream> start_paced(std::chrono::milliseconds pause,
                                              std::shared_future<Status>& done) {
    paced_ = std::make_unique<Client>(server_.config(), options(pause));
    done = start_on(*paced_);
    return next_stream();
  }

  // start_paced, then event "a" written and delivered (the reader is now pausing); null on
  // failure.
  std::shared_ptr<ResponseStream> start_paced_after_a(std::chrono::milliseconds pause,
                                                      std::shared_future<Status>& done) {
    auto s = start_paced(pause, done);
    if (!s) return nullptr;
    s->write_event("ADDED", pod("a", "1"));
    if (!log_.wait_for(1, 5s)) {
      ADD_FAILURE() << "event a was not delivered";
      return nullptr;
    }
    return s;
  }

  std::shared_ptr<ResponseStream> next_stream() {
    auto s = streams_.next(5s);
    EXPECT_TRUE(s) << "no watch request arrived; requests:\n" << server_.describe_requests();
    return s;
  }

  static ClientOptions options(std::chrono::milliseconds watch_read_pause = {}) {
    ClientOptions o;
    o.qps = 0;
    o.watch_read_pause = watch_read_pause;
    return o;
  }

  FakeApiServer server_{vc::testing::FakeApiServerOptions{.tls = GetParam()}};
  StreamQueue streams_;
  Client client_{server_.config(), options()};
  std::unique_ptr<Client> paced_;  // start_paced's; its watches end in TearDown
  EventLog log_;
  std::stop_source stop_;
  std::vector<std::shared_future<Status>> watches_;
};

TEST_P(WatchTest, SendsWatchParametersAndDeliversEveryEventTypeInOrder) {
  WatchOptions o;
  o.resource_version = "100";
  o.timeout_seconds = 300;
  o.label_selector = "app=a";
  auto done = start(o);
  auto s = next_stream();
  ASSERT_TRUE(s);
  s->write_event("ADDED", pod("a", "101"));
  s->write_event("MODIFIED", pod("b", "102"));
  s->write_event("DELETED", pod("c", "103"));
  s->write_event("BOOKMARK", pod("", "104"));
  s->close();
  ASSERT_EQ(done.wait_for(5s), std::future_status::ready);
  Status st = done.get();
  EXPECT_TRUE(st.ok()) << st.error().describe();
  auto events = log_.events();
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].type, WatchEvent::Type::Added);
  EXPECT_EQ(events[1].type, WatchEvent::Type::Modified);
  EXPECT_EQ(events[2].type, WatchEvent::Type::Deleted);
  EXPECT_EQ(events[3].type, WatchEvent::Type::Bookmark);
  EXPECT_EQ(events[3].object["metadata"]["resourceVersion"], "104");
  auto req = server_.requests().at(0);
  EXPECT_EQ(req.param("watch"), "1");
  EXPECT_EQ(req.param("allowWatchBookmarks"), "true");
  EXPECT_EQ(req.param("resourceVersion"), "100");
  EXPECT_EQ(req.param("timeoutSeconds"), "300");
  EXPECT_EQ(req.param("labelSelector"), "app=a");
}

TEST_P(WatchTest, GoneAtStartIsReturnedAsGone) {
  server_.handle("GET", "/api/v1/namespaces/ns/pods", [](const Request&) {
    return Response::error(410, "Expired", "too old resource version: 1 (500)");
  });
  WatchOptions o;
  o.resource_version = "1";
  Status st =
      client_.watch(resources::pods, "ns", o, [&](WatchEvent&& ev) { log_.add(std::move(ev)); });
  ASSERT_TRUE(st.is(ErrorKind::Gone)) << (st.ok() ? "ok" : st.error().describe());
  EXPECT_EQ(st.error().http_status, 410);
  EXPECT_TRUE(log_.events().empty());
}

TEST_P(WatchTest, ErrorEventMidStreamIsDelivered) {
  auto done = start();
  auto s = next_stream();
  ASSERT_TRUE(s);
  s->write_event("ADDED", pod("a", "1"));
  s->write_event("ERROR", {{"kind", "Status"}, {"code", 410}, {"reason", "Expired"}});
  s->close();
  ASSERT_EQ(done.wait_for(5s), std::future_status::ready);
  EXPECT_TRUE(done.get().ok());
  auto events = log_.events();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].type, WatchEvent::Type::Error);
  EXPECT_EQ(events[1].object["code"], 410);
}

TEST_P(WatchTest, ConnectionResetMidStreamReturnsAnErrorAfterDeliveringEarlierEventsOnce) {
  auto done = start();
  auto s = next_stream();
  ASSERT_TRUE(s);
  s->write_event("ADDED", pod("a", "1"));
  s->write_event("ADDED", pod("b", "2"));
  s->write_chunk(R"({"type":"ADDED","object":{"metadata":{"na)");  // cut off by the reset
  ASSERT_TRUE(log_.wait_for(2, 5s));
  s->reset_connection();
  ASSERT_EQ(done.wait_for(5s), std::future_status::ready);
  Status st = done.get();
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, ErrorKind::Transport) << st.error().describe();
  EXPECT_EQ(log_.names(), (std::vector<std::string>{"a", "b"}));
}

TEST_P(WatchTest, StreamEndingInsideAnEventIsAnError) {
  auto done = start();
  auto s = next_stream();
  ASSERT_TRUE(s);
  s->write_event("ADDED", pod("a", "1"));
  s->write_chunk(R"({"type":"ADDED")");
  s->close();
  ASSERT_EQ(done.wait_for(5s), std::future_status::ready);
  Status st = done.get();
  EXPECT_TRUE(st.is(ErrorKind::Transport));
  EXPECT_EQ(log_.names(), (std::vector<std::string>{"a"}));
}

TEST_P(WatchTest, EventsSplitOneBytePerChunkAreReassembled) {
  auto done = start();
  auto s = next_stream();
  ASSERT_TRUE(s);
  std::string text;
  for (int i = 0; i < 5; ++i) {
    text += json{{"type", "ADDED"}, {"object", pod("p" + std::to_string(i), "1")}}.dump() + "\n";
  }
  for (char c : text) s->write_chunk(std::string(1, c));
  s->close();
  ASSERT_EQ(done.wait_for(10s), std::future_status::ready);
  EXPECT_TRUE(done.get().ok());
  EXPECT_EQ(log_.names(), (std::vector<std::string>{"p0", "p1", "p2", "p3", "p4"}));
}

TEST_P(WatchTest, SeveralEventsInOneChunkAndOneEventOverManyChunks) {
  auto done = start();
  auto s = next_stream();
  ASSERT_TRUE(s);
  std::string two = json{{"type", "ADDED"}, {"object", pod("a", "1")}}.dump() + "\n" +
                    json{{"type", "ADDED"}, {"object", pod("b", "2")}}.dump() + "\n";
  s->write_chunk(two);
  json big = pod("c", "3");
  big["data"] = std::string(200000, 'x');  // larger than the client's read buffer
  const std::string text = json{{"type", "MODIFIED"}, {"object", big}}.dump() + "\n";
  for (std::size_t pos = 0; pos < text.size(); pos += 7000) s->write_chunk(text.substr(pos, 7000));
  s->close();
  ASSERT_EQ(done.wait_for(10s), std::future_status::ready);
  EXPECT_TRUE(done.get().ok());
  ASSERT_EQ(log_.names(), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(log_.events()[2].object["data"].get<std::string>().size(), 200000u);
}

TEST_P(WatchTest, StopTokenCancelsPromptlyAndClosesTheConnection) {
  auto done = start();
  auto s = next_stream();
  ASSERT_TRUE(s);
  s->write_event("ADDED", pod("a", "1"));
  ASSERT_TRUE(log_.wait_for(1, 5s));
  const auto t0 = std::chrono::steady_clock::now();
  stop_.request_stop();
  ASSERT_EQ(done.wait_for(2s), std::future_status::ready) << "watch did not return after stop";
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
  Status st = done.get();
  EXPECT_TRUE(st.is(ErrorKind::Cancelled)) << (st.ok() ? "ok" : st.error().describe());
  EXPECT_TRUE(s->wait_client_gone(5s)) << "the server never saw the connection close";
}

TEST_P(WatchTest, StopBeforeTheResponseHeadArrivesCancelsToo) {
  server_.handle("GET", "/api/v1/namespaces/ns/pods", [](const Request&) {
    Response r;
    r.stall = true;
    return r;
  });
  auto done = start();
  ASSERT_TRUE(server_.wait_for_requests(1, 5s));
  stop_.request_stop();
  ASSERT_EQ(done.wait_for(2s), std::future_status::ready);
  EXPECT_TRUE(done.get().is(ErrorKind::Cancelled));
}

TEST_P(WatchTest, APausedWatchReadsWhatArrivedDuringThePauseAtOnce) {
  std::shared_future<Status> done;
  auto s = start_paced_after_a(1000ms, done);
  ASSERT_TRUE(s);
  // The reader pauses only after it found the socket empty behind "a"; a "b" written the moment
  // "a" is delivered can beat that check (seen under a loaded parallel test run: "b" was read at
  // once and the pause came after it). 200 ms into the 1 s pause, the reader is in it.
  std::this_thread::sleep_for(200ms);
  // Both arrive while the reader pauses after "a"; "c" waits in the socket behind "b".
  s->write_event("ADDED", pod("b", "2"));
  std::this_thread::sleep_for(50ms);
  s->write_event("ADDED", pod("c", "3"));
  ASSERT_TRUE(log_.wait_for(3, 5s)) << log_.names().size() << " events";
  s->close();
  ASSERT_EQ(done.wait_for(10s), std::future_status::ready);
  EXPECT_TRUE(done.get().ok());
  EXPECT_EQ(log_.names(), (std::vector<std::string>{"a", "b", "c"}));
  const auto t = log_.times();
  EXPECT_GE(t[1] - t[0], 800ms) << "no pause after the first event";
  EXPECT_LT(t[2] - t[1], 500ms) << "paused again with an event waiting in the socket";
}

TEST_P(WatchTest, APausedWatchNeverPausesInsideAnEvent) {
  std::shared_future<Status> done;
  auto s = start_paced(5000ms, done);
  ASSERT_TRUE(s);
  const std::string text = json{{"type", "ADDED"}, {"object", pod("a", "1")}}.dump() + "\n";
  s->write_chunk(text.substr(0, 20));
  std::this_thread::sleep_for(100ms);
  const auto rest_sent = std::chrono::steady_clock::now();
  s->write_chunk(text.substr(20));
  ASSERT_TRUE(log_.wait_for(1, 10s));
  EXPECT_LT(log_.times()[0] - rest_sent, 2s) << "paused with half an event read";
  EXPECT_EQ(log_.names(), (std::vector<std::string>{"a"}));
}

TEST_P(WatchTest, StopDuringAPauseCancelsPromptly) {
  std::shared_future<Status> done;
  auto s = start_paced_after_a(10000ms, done);
  ASSERT_TRUE(s);
  std::this_thread::sleep_for(50ms);  // into the pause
  const auto t0 = std::chrono::steady_clock::now();
  stop_.request_stop();
  ASSERT_EQ(done.wait_for(3s), std::future_status::ready) << "the pause outlived the stop";
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
  EXPECT_TRUE(done.get().is(ErrorKind::Cancelled));
}

TEST_P(WatchTest, ConsecutiveWatchesReuseTheConnectionAfterACleanEnd) {
  for (int round = 0; round < 3; ++round) {
    auto done = start();
    auto s = next_stream();
    ASSERT_TRUE(s);
    s->write_event("ADDED", pod("p" + std::to_string(round), "1"));
    s->close();
    ASSERT_EQ(done.wait_for(5s), std::future_status::ready);
    ASSERT_TRUE(done.get().ok());
  }
  EXPECT_EQ(server_.connections_accepted(), 1);
  EXPECT_EQ(log_.names(), (std::vector<std::string>{"p0", "p1", "p2"}));
}

INSTANTIATE_TEST_SUITE_P(Transport, WatchTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Tls" : "Plain";
                         });

}  // namespace
}  // namespace vc::kube
