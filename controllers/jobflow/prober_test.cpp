// The prober (prober.h) with its two seams filled in: a pods List from plain JSON and a probe
// that answers from a table. Results, freshness on a hand-moved clock, the flows woken, one run
// for a check asked for while it runs, and failures named.
#include "controllers/jobflow/prober.h"

#include <condition_variable>
#include <mutex>

#include <gtest/gtest.h>

namespace vc::controllers::jobflow {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;
using TimePoint = std::chrono::steady_clock::time_point;

json running_pods(std::initializer_list<const char*> ips) {
  json items = json::array();
  for (const char* ip : ips) {
    items.push_back({{"metadata", {{"name", std::string("p-") + ip}}},
                     {"status", {{"phase", "Running"}, {"podIP", ip}}}});
  }
  return {{"items", items}};
}

ProbeCheck check(std::int64_t port) {
  ProbeCheck c;
  c.namespace_ = "ml";
  c.job = "flow-a";
  c.task = "srv";
  c.port = port;
  return c;
}

// Collects woken flow keys; wait_for blocks until n have arrived or 10 s passed.
struct Woken {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> keys;
  void add(const std::string& k) {
    {
      std::lock_guard lock(mu);
      keys.push_back(k);
    }
    cv.notify_all();
  }
  std::vector<std::string> wait_for(size_t n) {
    std::unique_lock lock(mu);
    cv.wait_for(lock, std::chrono::seconds(10), [&] { return keys.size() >= n; });
    return keys;
  }
};

struct Harness {
  std::atomic<int> lists{0};
  std::atomic<int> probes{0};
  std::string selector_seen;
  json pods = running_pods({"10.0.0.1", "10.0.0.2"});
  std::map<std::string, std::string> answers;  // ip -> error ("" = passes)
  TimePoint clock{};
  std::mutex gate_mu;
  std::condition_variable gate_cv;
  bool gate_open = true;
  Woken woken;
  std::unique_ptr<Prober> prober;

  Harness() {
    ProberOptions o;
    o.fresh = milliseconds(5000);
    o.now = [this] { return clock; };
    o.probe_ip = [this](const ProbeCheck&, const std::string& ip) {
      std::unique_lock lock(gate_mu);
      gate_cv.wait(lock, [&] { return gate_open; });
      ++probes;
      const auto it = answers.find(ip);
      return it == answers.end() ? std::string() : it->second;
    };
    prober = std::make_unique<Prober>(
        [this](const std::string& ns, const std::string& selector) -> kube::Result<json> {
          ++lists;
          selector_seen = ns + " " + selector;
          return pods;
        },
        [this](const std::string& k) { woken.add(k); }, o);
    prober->start();
  }
  void hold() {
    std::lock_guard lock(gate_mu);
    gate_open = false;
  }
  void release() {
    {
      std::lock_guard lock(gate_mu);
      gate_open = true;
    }
    gate_cv.notify_all();
  }
};

TEST(JobFlowProber, ACheckRunsOnItsThreadAndWakesTheFlow) {
  Harness h;
  h.prober->request({check(80)}, "ml/flow");
  EXPECT_EQ(h.woken.wait_for(1), std::vector<std::string>{"ml/flow"});
  EXPECT_EQ(h.selector_seen, "ml volcano.sh/job-name=flow-a,volcano.sh/task-spec=srv");
  EXPECT_EQ(h.probes.load(), 2);  // each pod's IP
  EXPECT_EQ(h.prober->fresh_results(), (ProbeResults{{check(80).key(), true}}));
  // A fresh result is not run again.
  h.prober->request({check(80)}, "ml/flow");
  h.prober->request({check(81)}, "ml/other");  // a marker: runs after anything queued before
  EXPECT_EQ(h.woken.wait_for(2).back(), "ml/other");
  EXPECT_EQ(h.lists.load(), 2);
}

TEST(JobFlowProber, AResultGoesStaleAndAFailureNamesThePod) {
  Harness h;
  h.answers["10.0.0.2"] = "10.0.0.2:80: connect: Connection refused";
  EXPECT_EQ(h.prober->run(check(80)), "10.0.0.2:80: connect: Connection refused");
  h.prober->request({check(80)}, "ml/flow");
  h.woken.wait_for(1);
  EXPECT_EQ(h.prober->fresh_results(), (ProbeResults{{check(80).key(), false}}));
  h.clock += milliseconds(5000);
  EXPECT_TRUE(h.prober->fresh_results().empty());
  h.answers.clear();
  h.prober->request({check(80)}, "ml/flow");  // stale: runs again
  h.woken.wait_for(2);
  EXPECT_EQ(h.prober->fresh_results(), (ProbeResults{{check(80).key(), true}}));
}

TEST(JobFlowProber, ACheckAskedForWhileItRunsRunsOnceAndWakesBoth) {
  Harness h;
  h.hold();
  h.prober->request({check(80)}, "ml/one");
  // Wait until the thread has taken the check (it is blocked in the probe).
  for (int i = 0; i < 1000 && h.lists.load() == 0; ++i)
    std::this_thread::sleep_for(milliseconds(5));
  ASSERT_EQ(h.lists.load(), 1);
  h.prober->request({check(80)}, "ml/two");
  h.release();
  auto keys = h.woken.wait_for(2);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<std::string>{"ml/one", "ml/two"}));
  EXPECT_EQ(h.lists.load(), 1);
}

TEST(JobFlowProber, ListFailuresAndPodsNotReadyFailTheCheck) {
  Harness h;
  h.pods = json{{"items", {{{"metadata", {{"name", "p0"}}}, {"status", {{"phase", "Pending"}}}}}}};
  EXPECT_EQ(h.prober->run(check(80)), "pod p0 is Pending");
  EXPECT_EQ(h.probes.load(), 0);
  Prober broken(
      [](const std::string&, const std::string&) -> kube::Result<json> {
        return kube::ApiError{.kind = kube::ErrorKind::Forbidden,
                              .http_status = 403,
                              .reason = "Forbidden",
                              .message = "pods is forbidden",
                              .causes = {},
                              .retry_after = std::nullopt};
      },
      [](const std::string&) {});
  EXPECT_EQ(broken.run(check(80)).rfind("cannot list the task's pods: ", 0), 0u);
  Prober throwing(
      [](const std::string&, const std::string&) -> kube::Result<json> {
        throw std::runtime_error("boom");
      },
      [](const std::string&) {});
  EXPECT_EQ(throwing.run(check(80)), "probe failed: boom");
}

TEST(JobFlowProber, StopDropsTheQueueAndRequestsAfterwardsAreIgnored) {
  Harness h;
  h.hold();
  h.prober->request({check(80), check(81)}, "ml/flow");
  for (int i = 0; i < 1000 && h.lists.load() == 0; ++i)
    std::this_thread::sleep_for(milliseconds(5));
  std::thread stopper([&] { h.prober->stop(); });
  // Release the check in progress only once stop() has dropped the queue behind it.
  for (int i = 0; i < 1000 && !h.prober->stopping(); ++i)
    std::this_thread::sleep_for(milliseconds(5));
  EXPECT_TRUE(h.prober->stopping());
  h.release();
  stopper.join();
  h.prober->request({check(82)}, "ml/flow");
  EXPECT_EQ(h.lists.load(), 1);  // 81 was dropped, 82 never queued
}

}  // namespace
}  // namespace vc::controllers::jobflow
