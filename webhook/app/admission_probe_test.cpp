#include "webhook/app/admission_probe.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <gtest/gtest.h>

#include "webhook/server/server_test_util.h"

namespace vc::webhook::app {
namespace {

using namespace std::chrono_literals;
using Clock = ProbeHistory::Clock;

const AdmissionProbeOptions kOptions{.interval = 1s, .timeout = 1s, .stall_timeout = 20s};

TEST(ProbeHistory, NotReadyButLiveBeforeTheServerStarts) {
  ProbeHistory h(kOptions);
  const auto t0 = Clock::time_point{} + 1h;
  EXPECT_FALSE(h.ready(t0));
  EXPECT_TRUE(h.live(t0 + 10min));  // caBundle registration and cache sync may take minutes
}

TEST(ProbeHistory, ReadyWhileTheLastDialSucceededRecently) {
  ProbeHistory h(kOptions);
  const auto t0 = Clock::time_point{} + 1h;
  h.started(t0);
  EXPECT_FALSE(h.ready(t0));  // no dial yet
  h.record(true, t0 + 10ms);
  EXPECT_TRUE(h.ready(t0 + 1s));
  // interval + timeout + 1 s of slack without a finished dial: the prober itself is stuck.
  EXPECT_TRUE(h.ready(t0 + 10ms + 3s));
  EXPECT_FALSE(h.ready(t0 + 10ms + 3s + 1ms));
}

TEST(ProbeHistory, OneFailedDialMakesItNotReadyAndLivenessWaitsForTheStall) {
  ProbeHistory h(kOptions);
  const auto t0 = Clock::time_point{} + 1h;
  h.started(t0);
  h.record(true, t0 + 1s);
  h.record(false, t0 + 3s);
  EXPECT_FALSE(h.ready(t0 + 3s));
  EXPECT_TRUE(h.live(t0 + 3s));
  h.record(false, t0 + 20s);
  EXPECT_TRUE(h.live(t0 + 21s));  // 20 s since the last success
  EXPECT_FALSE(h.live(t0 + 21s + 1ms));
  h.record(true, t0 + 22s);
  EXPECT_TRUE(h.live(t0 + 22s));
  EXPECT_TRUE(h.ready(t0 + 22s));
}

TEST(ProbeHistory, AServerThatNeverAnsweredStallsFromItsStart) {
  ProbeHistory h(kOptions);
  const auto t0 = Clock::time_point{} + 1h;
  h.started(t0);
  h.record(false, t0 + 1s);
  EXPECT_TRUE(h.live(t0 + 20s));
  EXPECT_FALSE(h.live(t0 + 20s + 1ms));
}

TEST(ProbeHistory, StoppedIsLiveAndNotReady) {
  ProbeHistory h(kOptions);
  const auto t0 = Clock::time_point{} + 1h;
  h.started(t0);
  h.record(true, t0);
  h.stopped();
  EXPECT_FALSE(h.ready(t0));
  EXPECT_TRUE(h.live(t0 + 1h));  // graceful shutdown is not a wedge
}

TEST(ProbeHost, LoopbackForWildcardAddresses) {
  EXPECT_EQ(probe_host(""), "127.0.0.1");
  EXPECT_EQ(probe_host("0.0.0.0"), "127.0.0.1");
  EXPECT_EQ(probe_host("::"), "::1");
  EXPECT_EQ(probe_host("10.1.2.3"), "10.1.2.3");
}

TEST(DialAdmission, AnswersThroughTheAdmissionServersTlsPath) {
  server::test::RunningServer s({});
  auto dialed = dial_admission("127.0.0.1", s.port(), 2s);
  EXPECT_TRUE(dialed.ok()) << dialed.error();
}

// A listener whose accept queue nobody drains: connect succeeds (the kernel completes the
// handshake), the TLS handshake never does, as with a wedged or stopped server.
class SilentListener {
 public:
  SilentListener()
      : acceptor_(io_, boost::asio::ip::tcp::endpoint(boost::asio::ip::address_v4::loopback(), 0)) {}
  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
};

TEST(DialAdmission, AWedgedServerFailsWithinTheDeadline) {
  SilentListener wedged;
  const auto started = Clock::now();
  auto dialed = dial_admission("127.0.0.1", wedged.port(), 300ms);
  const auto took = Clock::now() - started;
  ASSERT_FALSE(dialed.ok());
  EXPECT_NE(dialed.error().find("TLS handshake"), std::string::npos) << dialed.error();
  EXPECT_LT(took, 2s);
}

TEST(DialAdmission, NothingListeningFailsAtConnect) {
  std::uint16_t port = 0;
  {
    SilentListener closed;
    port = closed.port();
  }
  auto dialed = dial_admission("127.0.0.1", port, 1s);
  ASSERT_FALSE(dialed.ok());
  EXPECT_NE(dialed.error().find("connect"), std::string::npos) << dialed.error();
}

TEST(AdmissionProbe, ReadyAndLiveAgainstARunningServerAndNotReadyOnceItStops) {
  server::test::RunningServer s({});
  AdmissionProbe probe("127.0.0.1", s.port(),
                       {.interval = 20ms, .timeout = 500ms, .stall_timeout = 5s});
  EXPECT_FALSE(probe.ready());
  probe.start();
  EXPECT_TRUE(probe.ready());  // the first dial is made before start() returns
  EXPECT_TRUE(probe.live());
  s.server->stop();
  EXPECT_TRUE(server::test::wait_until([&] { return !probe.ready(); }, 5s));
  EXPECT_TRUE(probe.live());  // a stall takes stall_timeout
  probe.stop();
}

}  // namespace
}  // namespace vc::webhook::app
