#include "controllers/app/run.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "common/flags/version.h"
#include "controllers/app/app_test_util.h"
#include "controllers/app/builtin.h"

namespace vc::controllers::app {
namespace {

using namespace std::chrono_literals;
using testutil::FakeLease;
using testutil::Journal;

// A blocking HTTP/1.0 GET on 127.0.0.1; returns "<status line>\n<body>" or "" on failure.
std::string http_get(std::uint16_t port, const std::string& path) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return {};
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval tv{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::string out;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    const std::string req = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    if (write(fd, req.data(), req.size()) == static_cast<ssize_t>(req.size())) {
      char buf[4096];
      ssize_t n;
      while ((n = read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
    }
  }
  close(fd);
  const auto line_end = out.find("\r\n");
  const auto body = out.find("\r\n\r\n");
  if (line_end == std::string::npos || body == std::string::npos) return out;
  return out.substr(0, line_end) + "\n" + out.substr(body + 4);
}

ControllerManagerOptions parse(const std::vector<std::string>& args) {
  auto parsed = parse_command_line(args);
  EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error());
  return parsed ? parsed->options : ControllerManagerOptions{};
}

// Runs run() on a thread; the destructor stops it.
class Process {
 public:
  Process(ControllerManagerOptions options, RunSettings settings)
      : options_(std::move(options)), settings_(std::move(settings)) {
    exit_ = std::async(std::launch::async,
                       [this] { return run(options_, stop_.get_token(), settings_); });
  }
  ~Process() {
    stop_.request_stop();
    if (exit_.valid()) exit_.wait();
  }
  // Requests the stop and returns the exit code; -1 if run() did not return within 10 s.
  int stop() {
    stop_.request_stop();
    if (exit_.wait_for(10s) != std::future_status::ready) return -1;
    return exit_.get();
  }

 private:
  ControllerManagerOptions options_;
  RunSettings settings_;
  std::stop_source stop_;
  std::future<int> exit_;
};

TEST(ControllerManagerProcess, LostLeaseStopsTheTermAndANewTermRunsAfterReacquiring) {
  vc::testing::FakeApiServer server;
  FakeLease lease(server, "volcano-system", "vc-controller-manager");
  Journal journal;
  ControllerRegistry registry;
  registry.add("test-controller", testutil::journal_factory("test-controller", journal));
  RunSettings settings;
  settings.registry = &registry;
  settings.config = server.config();
  settings.identity = "me";
  Process process(parse({"--controllers=test-controller", "--leader-elect-lease-duration=2s",
                         "--leader-elect-renew-deadline=1s", "--leader-elect-retry-period=200ms"}),
                  std::move(settings));

  ASSERT_TRUE(journal.wait_for("run 1", 10s)) << journal.dump();
  EXPECT_EQ(lease.holder(), "me");

  lease.rival_takes("rival");
  ASSERT_TRUE(journal.wait_for("stop 1", 10s)) << journal.dump();
  EXPECT_EQ(lease.holder(), "rival") << "we must not write the Lease back while the rival holds it";
  EXPECT_FALSE(journal.contains("initialize 2")) << journal.dump();

  lease.rival_releases();
  ASSERT_TRUE(journal.wait_for("run 2", 10s)) << journal.dump();
  EXPECT_EQ(lease.holder(), "me");

  EXPECT_EQ(process.stop(), 0);
  EXPECT_EQ(journal.lines(), (std::vector<std::string>{"initialize 1", "run 1", "stop 1",
                                                       "initialize 2", "run 2", "stop 2"}));
  EXPECT_EQ(lease.holder(), "") << "the lease is released on shutdown";
}

TEST(ControllerManagerProcess, WithoutLeaderElectionControllersRunAtOnceAndServersAnswer) {
  vc::testing::FakeApiServer server;
  Journal journal;
  ControllerRegistry registry;
  registry.add("test-controller", testutil::journal_factory("test-controller", journal));
  registry.add("off-controller", testutil::journal_factory("off-controller", journal));
  std::promise<std::pair<std::uint16_t, std::uint16_t>> ports;
  RunSettings settings;
  settings.registry = &registry;
  settings.config = server.config();
  settings.on_serving = [&](std::uint16_t h, std::uint16_t m) { ports.set_value({h, m}); };
  Process process(
      parse({"--leader-elect=false", "--controllers=test-controller", "--enable-healthz",
             "--healthz-address=127.0.0.1:0", "--enable-metrics", "--listen-address=127.0.0.1:0"}),
      std::move(settings));

  auto served = ports.get_future();
  ASSERT_EQ(served.wait_for(10s), std::future_status::ready);
  const auto [health, metrics] = served.get();
  ASSERT_NE(health, 0);
  ASSERT_NE(metrics, 0);
  ASSERT_TRUE(journal.wait_for("run 1", 10s)) << journal.dump();
  EXPECT_EQ(http_get(health, "/healthz"), "HTTP/1.0 200 OK\nok");
  EXPECT_EQ(http_get(health, "/healthz/ping"), "HTTP/1.0 200 OK\nok");
  EXPECT_EQ(http_get(health, "/readyz").substr(0, 15), "HTTP/1.0 200 OK");
  const std::string scraped = http_get(metrics, "/metrics");
  EXPECT_EQ(scraped.substr(0, 15), "HTTP/1.0 200 OK");
  // The build-info gauge carries the commit --version prints; the process_* series are there.
  EXPECT_NE(scraped.find("component=\"vc-controller-manager\",git_commit=\"" +
                         std::string(flags::build_info().git_commit) + "\""),
            std::string::npos)
      << scraped;
  EXPECT_NE(scraped.find("\nprocess_resident_memory_bytes "), std::string::npos) << scraped;
  EXPECT_TRUE(server.requests().empty()) << "no leader election, nothing asked of the API:\n"
                                         << server.describe_requests();

  EXPECT_EQ(process.stop(), 0);
  EXPECT_EQ(journal.lines(), (std::vector<std::string>{"initialize 1", "run 1", "stop 1"}));
}

TEST(ControllerManagerProcess, InvalidOptionsExitOneWithTheAggregatedMessage) {
  vc::testing::FakeApiServer server;
  RunSettings settings;
  settings.config = server.config();
  ::testing::internal::CaptureStderr();
  const int rc = run(parse({"--controllers=+x,-x", "--leader-elect-renew-deadline=20s"}),
                     std::stop_token{}, settings);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(rc, 1);
  EXPECT_EQ(err,
            "[controllers option -x cannot have both '-' and '+' prefixes, "
            "leaderElection.leaseDuration: Invalid value: \"20s\": LeaseDuration must be greater "
            "than RenewDeadline]\n");
}

TEST(ControllerManagerProcess, UnreadableTlsFilesExitOne) {
  vc::testing::FakeApiServer server;
  RunSettings settings;
  settings.config = server.config();
  ::testing::internal::CaptureStderr();
  const int rc = run(parse({"--ca-cert-file=/nonexistent/ca", "--tls-cert-file=/nonexistent/c",
                            "--tls-private-key-file=/nonexistent/k"}),
                     std::stop_token{}, settings);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(rc, 1);
  EXPECT_EQ(err.rfind("Failed to parse CA file: failed to read cacert file (/nonexistent/ca): ", 0),
            0u)
      << err;
}

TEST(ControllerManagerProcess, EnabledControllerWithoutImplementationExitsOne) {
  vc::testing::FakeApiServer server;
  ControllerRegistry registry;  // every known name, no factory
  RunSettings settings;
  settings.registry = &registry;
  settings.config = server.config();
  ::testing::internal::CaptureStderr();
  const int rc =
      run(parse({"--leader-elect=false", "--controllers=job-controller,queue-controller"}),
          std::stop_token{}, settings);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(rc, 1);
  EXPECT_EQ(err,
            "--controllers enables controllers this binary does not have: job-controller, "
            "queue-controller\n");
}

TEST(ControllerManagerProcess, BuiltinRegistryImplementsEveryKnownController) {
  ControllerRegistry builtin;
  register_builtin_controllers(builtin);
  const Selection all = builtin.select({"*"});
  EXPECT_TRUE(all.unimplemented.empty()) << all.unimplemented.front();
  EXPECT_EQ(all.enabled.size(), known_controller_names().size());
}

TEST(ControllerManager, StopWhileCachesSyncAbortsTheTermWithoutRunningIt) {
  // No handler for queues: the list fails with 404 and the cache never syncs.
  vc::testing::FakeApiServer server;
  kube::Client client(server.config());
  Journal journal;
  ControllerManager manager(
      client, ControllerOptions{},
      {Registration{"watcher", testutil::journal_factory("watcher", journal, true)}});
  manager.start();
  EXPECT_TRUE(manager.ready());
  manager.on_started_leading();
  ASSERT_TRUE(journal.wait_for("initialize 1", 10s)) << journal.dump();
  EXPECT_FALSE(manager.ready()) << "a term whose caches have not synced is not ready";

  const auto began = std::chrono::steady_clock::now();
  manager.on_stopped_leading();
  EXPECT_LT(std::chrono::steady_clock::now() - began, 5s);
  EXPECT_EQ(journal.lines(), (std::vector<std::string>{"initialize 1", "stop 1"}));
  EXPECT_TRUE(manager.ready());
  manager.shutdown();
  EXPECT_EQ(manager.terms_started(), 1);
}

TEST(ControllerManager, NullFactoryIsSkippedAndTheOthersRun) {
  vc::testing::FakeApiServer server;
  kube::Client client(server.config());
  Journal journal;
  std::promise<std::vector<std::string>> running;
  ManagerSettings settings;
  settings.on_term_running = [&](int, const std::vector<std::string>& names) {
    running.set_value(names);
  };
  ControllerManager manager(
      client, ControllerOptions{},
      {Registration{"job-controller", [] { return std::unique_ptr<Controller>(); }},
       Registration{"test-controller", testutil::journal_factory("test-controller", journal)}},
      settings);
  manager.start();
  manager.on_started_leading();
  auto names = running.get_future();
  ASSERT_EQ(names.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(names.get(), std::vector<std::string>{"test-controller"});
  manager.shutdown();
  EXPECT_EQ(journal.lines(), (std::vector<std::string>{"initialize 1", "run 1", "stop 1"}));
}

}  // namespace
}  // namespace vc::controllers::app
