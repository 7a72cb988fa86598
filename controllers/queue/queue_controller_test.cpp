// The controller wired to shared informers over a FakeApiServer: list/watch of queues,
// PodGroups and commands, and the writes the controller makes in response.
#include "controllers/queue/queue_controller.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "common/kube/cache/fake_collection_test_util.h"
#include "common/kube/events/fake_recorder.h"
#include "common/metrics/registry.h"
#include "common/testing/metrics.h"

namespace vc::controllers::queue {
namespace {

using namespace std::chrono_literals;
using kube::cache::testing_util::FakeCollection;
using nlohmann::json;
using ::testing::HasSubstr;
using vc::testing::FakeApiServer;
using vc::testing::Response;
using HttpRequest = vc::testing::Request;

json queue_obj(const std::string& name, const std::string& state, const std::string& parent,
               int rv) {
  json q = {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
            {"kind", "Queue"},
            {"metadata",
             {{"name", name}, {"uid", "uid-" + name}, {"resourceVersion", std::to_string(rv)}}},
            {"spec", {{"weight", 1}}},
            {"status", json::object()}};
  if (!parent.empty()) q["spec"]["parent"] = parent;
  if (!state.empty()) q["status"]["state"] = state;
  return q;
}

json podgroup_obj(const std::string& name, const std::string& queue, const std::string& phase) {
  return {
      {"apiVersion", "scheduling.volcano.sh/v1beta1"},
      {"kind", "PodGroup"},
      {"metadata",
       {{"namespace", "ns1"}, {"name", name}, {"uid", "uid-" + name}, {"resourceVersion", "3"}}},
      {"spec", {{"minMember", 1}, {"queue", queue}}},
      {"status", {{"phase", phase}}}};
}

json command_obj(const std::string& name, const std::string& queue, const std::string& action) {
  return {{"apiVersion", "bus.volcano.sh/v1alpha1"},
          {"kind", "Command"},
          {"metadata", {{"namespace", "ns1"}, {"name", name}, {"resourceVersion", "4"}}},
          {"action", action},
          {"target",
           {{"apiVersion", "scheduling.volcano.sh/v1beta1"},
            {"kind", "Queue"},
            {"name", queue},
            {"uid", "uid-" + queue}}}};
}

// Polls cond until it holds or the deadline passes; returns whether it held.
bool eventually(const std::function<bool()>& cond, std::chrono::milliseconds timeout = 10s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (cond()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return cond();
}

class QueueControllerTest : public ::testing::Test {
 protected:
  QueueControllerTest()
      : queues_(server_, "/apis/scheduling.volcano.sh/v1beta1/queues"),
        podgroups_(server_, "/apis/scheduling.volcano.sh/v1beta1/podgroups"),
        commands_(server_, "/apis/bus.volcano.sh/v1alpha1/commands"),
        client_(server_.config()),
        factory_(client_) {
    server_.handle_prefix("PATCH", "/apis/scheduling.volcano.sh/v1beta1/queues/",
                          [](const HttpRequest& r) {
                            std::string name = r.path.substr(r.path.rfind("/queues/") + 8);
                            name = name.substr(0, name.find('/'));
                            return Response::json(200, queue_obj(name, "", "", 100));
                          });
    server_.handle_prefix("DELETE", "/apis/bus.volcano.sh/v1alpha1/namespaces/ns1/commands/",
                          [](const HttpRequest&) {
                            return Response::json(200, {{"kind", "Status"}, {"status", "Success"}});
                          });
    options_.worker_threads_for_queue = 2;
  }

  ~QueueControllerTest() override {
    if (controller_) controller_->stop();
    factory_.stop();
  }

  void start() {
    controller_ = make_queue_controller();
    ASSERT_NE(controller_, nullptr);
    ASSERT_EQ(controller_->name(), "queue-controller");
    ControllerContext ctx{client_, factory_, recorder_, options_};
    ASSERT_EQ(controller_->initialize(ctx).error(), "");
    factory_.start();
    ASSERT_TRUE(factory_.wait_for_sync({}, std::chrono::steady_clock::now() + 10s));
    controller_->run();
  }

  // "PATCH <path> <body>" / "DELETE <path>" for every write so far.
  std::vector<std::string> writes() const {
    std::vector<std::string> out;
    for (const auto& r : server_.requests()) {
      if (r.method == "GET") continue;
      out.push_back(r.method + " " + r.path + (r.body.empty() ? "" : " " + r.json().dump()));
    }
    return out;
  }
  bool wrote(const std::string& line) const {
    auto w = writes();
    return std::find(w.begin(), w.end(), line) != w.end();
  }
  std::string dump_writes() const {
    std::string out;
    for (const auto& w : writes()) out += w + "\n";
    return out;
  }

  FakeApiServer server_;
  FakeCollection queues_;
  FakeCollection podgroups_;
  FakeCollection commands_;
  kube::Client client_;
  kube::cache::SharedInformerFactory factory_;
  kube::events::FakeRecorder recorder_;
  ControllerOptions options_;
  std::unique_ptr<Controller> controller_;
};

constexpr const char* kQ = "/apis/scheduling.volcano.sh/v1beta1/queues/q";

TEST_F(QueueControllerTest, NewQueueIsParentedToRootOpenedAndItsPodGroupsCounted) {
  queues_.add_list_version({queue_obj("root", "Open", "", 1), queue_obj("q", "", "", 2)}, 10);
  podgroups_.add_list_version(
      {podgroup_obj("pg1", "q", "Running"), podgroup_obj("pg2", "q", "Inqueue"),
       podgroup_obj("pg3", "other", "Running")},
      10);
  commands_.add_list_version({}, 10);
  start();

  const std::string apply = std::string("PATCH ") + kQ +
                            "/status {\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":"
                            "\"Queue\",\"metadata\":{\"name\":\"q\",\"resourceVersion\":\"100\"},"
                            "\"status\":{\"state\":\"Open\"}}";
  ASSERT_TRUE(eventually([&] { return wrote(apply); })) << dump_writes();
  EXPECT_TRUE(wrote(std::string("PATCH ") + kQ +
                    " {\"metadata\":{\"resourceVersion\":\"2\"},\"spec\":{\"parent\":\"root\"}}"))
      << dump_writes();
  const std::string text = vc::metrics::render_text();
  EXPECT_THAT(text, HasSubstr("volcano_queue_pod_group_running_count{queue_name=\"q\"} 1"));
  EXPECT_THAT(text, HasSubstr("volcano_queue_pod_group_inqueue_count{queue_name=\"q\"} 1"));
  EXPECT_THAT(text, HasSubstr("volcano_queue_pod_group_pending_count{queue_name=\"q\"} 0"));

  // Deleting the queue removes its series.
  auto watch = queues_.next_watch();
  ASSERT_TRUE(watch);
  watch->write_event("DELETED", queue_obj("q", "Open", "root", 101));
  EXPECT_TRUE(eventually([] {
    return vc::metrics::render_text().find("queue_name=\"q\"") == std::string::npos;
  })) << vc::metrics::render_text();
}

// How many keys the queue controller's work queue has processed so far in this process.
double queue_syncs_so_far() {
  return vc::testing::metric_value(
      R"(workqueue_work_duration_seconds_count{name="queue-controller"})");
}

TEST_F(QueueControllerTest, ABurstOfPodGroupChangesIsOneSync) {
  queues_.add_list_version({queue_obj("root", "Open", "", 1), queue_obj("q", "Open", "root", 2)},
                           10);
  podgroups_.add_list_version({podgroup_obj("pg1", "q", "Pending")}, 10);
  commands_.add_list_version({}, 10);
  start();
  ASSERT_TRUE(eventually([] {
    return vc::metrics::render_text().find(
               "volcano_queue_pod_group_pending_count{queue_name=\"q\"} 1") != std::string::npos;
  })) << vc::metrics::render_text();
  // Let the start-up syncs (root and q) finish before counting.
  double before = queue_syncs_so_far();
  ASSERT_TRUE(eventually([&] {
    std::this_thread::sleep_for(700ms);
    const double now = queue_syncs_so_far();
    const bool settled = now == before;
    before = now;
    return settled;
  }));

  auto watch = podgroups_.next_watch();
  ASSERT_TRUE(watch);
  // 20 phase changes within about 100 ms, ending with pg1 Running.
  for (int i = 0; i < 20; ++i) {
    const char* phase = i % 2 == 0 ? "Inqueue" : "Running";
    json pg = podgroup_obj("pg1", "q", phase);
    pg["metadata"]["resourceVersion"] = std::to_string(20 + i);
    watch->write_event("MODIFIED", pg);
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_TRUE(eventually([] {
    return vc::metrics::render_text().find(
               "volcano_queue_pod_group_running_count{queue_name=\"q\"} 1") != std::string::npos;
  })) << vc::metrics::render_text();
  EXPECT_LE(queue_syncs_so_far() - before, 2) << "each PodGroup change synced the queue on its own";
}

TEST_F(QueueControllerTest, CloseCommandIsDeletedThenTheQueueGoesClosingWithAnEvent) {
  queues_.add_list_version({queue_obj("root", "Open", "", 1), queue_obj("q", "Open", "root", 2)},
                           10);
  podgroups_.add_list_version({podgroup_obj("pg1", "q", "Running")}, 10);
  commands_.add_list_version({command_obj("c1", "q", "CloseQueue")}, 10);
  start();

  const std::string del = "DELETE /apis/bus.volcano.sh/v1alpha1/namespaces/ns1/commands/c1";
  const std::string closing = std::string("PATCH ") + kQ +
                              "/status {\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":"
                              "\"Queue\",\"metadata\":{\"name\":\"q\",\"resourceVersion\":\"2\"},"
                              "\"status\":{\"state\":\"Closing\"}}";
  ASSERT_TRUE(eventually([&] { return wrote(closing); })) << dump_writes();
  auto w = writes();
  auto d = std::find(w.begin(), w.end(), del);
  auto c = std::find(w.begin(), w.end(), closing);
  ASSERT_NE(d, w.end()) << dump_writes();
  EXPECT_LT(d - w.begin(), c - w.begin()) << "the command must be deleted before acting";
  EXPECT_TRUE(eventually([&] {
    auto lines = recorder_.lines();
    return std::find(lines.begin(), lines.end(), "Normal CloseQueue Close queue succeed") !=
           lines.end();
  }));
}

TEST_F(QueueControllerTest, RequestsAreDroppedWithAWarningEventAfterMaxRequeue) {
  options_.max_requeue_num = 1;
  // Parent "missing" is not cached: SYNC fails on the hierarchy step every time.
  queues_.add_list_version({queue_obj("q", "Open", "missing", 2)}, 10);
  podgroups_.add_list_version({}, 10);
  commands_.add_list_version({}, 10);
  start();
  std::vector<std::string> lines;
  ASSERT_TRUE(eventually([&] {
    lines = recorder_.lines();
    return !lines.empty();
  }));
  EXPECT_EQ(lines[0],
            "Warning SyncQueue SyncQueue queue failed for sync queue q failed for Failed to get "
            "parent queue missing of queue q: queues.scheduling.volcano.sh \"missing\" not found, "
            "event is OutOfSync, action is SyncQueue");
  EXPECT_EQ(recorder_.events()[0].object.uid, "uid-q");
}

TEST_F(QueueControllerTest, WithoutQueueCommandSyncCommandsAreNotWatched) {
  options_.queue_command_sync = false;
  queues_.add_list_version({queue_obj("root", "Open", "", 1)}, 10);
  podgroups_.add_list_version({}, 10);
  commands_.add_list_version({command_obj("c1", "root", "OpenQueue")}, 10);
  start();
  EXPECT_EQ(factory_.size(), 2u);
  for (const auto& r : server_.requests()) {
    EXPECT_EQ(r.path.find("/apis/bus.volcano.sh"), std::string::npos) << r.target;
  }
}

}  // namespace
}  // namespace vc::controllers::queue
