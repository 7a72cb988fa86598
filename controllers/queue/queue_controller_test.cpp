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
#include "common/kube/workqueue/clock.h"
#include "common/metrics/registry.h"
#include "common/testing/eventually.h"
#include "common/testing/metrics.h"
#include "controllers/views/podgroup_view.h"

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

using vc::testing::eventually;

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
    ControllerContext ctx{client_, factory_, recorder_, options_, clock_};
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
  std::shared_ptr<kube::workqueue::Clock> clock_;  // null: the real clock
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

// Items added to the controller's work queue and not yet done (queued or being processed);
// parked delayed items are not counted until they are due. Metrics are process-wide and keep
// what earlier tests' queues dropped at shutdown, hence the offset taken before start().
double queue_items_outstanding(double offset) {
  return vc::testing::metric_value(R"(workqueue_adds_total{name="queue-controller"})") -
         queue_syncs_so_far() - offset;
}

TEST_F(QueueControllerTest, ABurstOfPodGroupChangesIsOneSync) {
  queues_.add_list_version({queue_obj("root", "Open", "", 1), queue_obj("q", "Open", "root", 2)},
                           10);
  podgroups_.add_list_version({podgroup_obj("pg1", "q", "Pending")}, 10);
  commands_.add_list_version({}, 10);
  // The work queue's delays run on a fake clock: the PodGroup batch waits until the test moves
  // time, so what the burst adds can be counted exactly.
  auto clock = std::make_shared<kube::workqueue::FakeClock>();
  clock_ = clock;
  const double offset = queue_items_outstanding(0);
  start();
  ASSERT_TRUE(eventually([] {
    return vc::metrics::render_text().find(
               "volcano_queue_pod_group_pending_count{queue_name=\"q\"} 1") != std::string::npos;
  })) << vc::metrics::render_text();
  // The start-up syncs of root and q are done; q's PodGroup batch is parked on the clock.
  ASSERT_TRUE(eventually([&] { return queue_items_outstanding(offset) == 0; }))
      << queue_items_outstanding(offset) << " items outstanding";
  const double before = queue_syncs_so_far();

  auto watch = podgroups_.next_watch();
  ASSERT_TRUE(watch);
  // 20 phase changes at once, ending with pg1 Running.
  for (int i = 0; i < 20; ++i) {
    const char* phase = i % 2 == 0 ? "Inqueue" : "Running";
    json pg = podgroup_obj("pg1", "q", phase);
    pg["metadata"]["resourceVersion"] = std::to_string(20 + i);
    watch->write_event("MODIFIED", pg);
  }
  kube::cache::InformerSpec podgroup_spec;
  podgroup_spec.transform = views::podgroup_view_transform();
  auto podgroups = factory_.informer(kube::resources::podgroups, podgroup_spec);
  ASSERT_TRUE(eventually([&] {
    auto pg = podgroups->store().get("ns1/pg1");
    return pg && pg->resource_version == "39";
  })) << "the informer did not deliver the burst";
  EXPECT_EQ(queue_syncs_so_far(), before) << "a PodGroup change synced the queue before its batch";

  clock->step(std::chrono::milliseconds(500));
  ASSERT_TRUE(eventually([] {
    return vc::metrics::render_text().find(
               "volcano_queue_pod_group_running_count{queue_name=\"q\"} 1") != std::string::npos;
  })) << vc::metrics::render_text();
  ASSERT_TRUE(eventually([&] { return queue_items_outstanding(offset) == 0; }));
  EXPECT_EQ(queue_syncs_so_far() - before, 1) << "the burst was not merged into one sync";
}

TEST_F(QueueControllerTest, AStateOnlyChangeSyncsTheQueueSoAnEmptyClosingQueueCloses) {
  // Our CLOSE wrote Closing while a SYNC planned from the older Open copy wrote nothing, and the
  // last PodGroup is gone: the state change itself must sync the queue, no other event will.
  queues_.add_list_version({queue_obj("root", "Open", "", 1), queue_obj("q", "Open", "root", 2)},
                           10);
  podgroups_.add_list_version({}, 10);
  commands_.add_list_version({}, 10);
  const double offset = queue_items_outstanding(0);
  start();
  // The start-up syncs of root and q are done and wrote nothing.
  ASSERT_TRUE(eventually([&] { return queue_items_outstanding(offset) == 0; }))
      << queue_items_outstanding(offset) << " items outstanding";
  ASSERT_EQ(dump_writes(), "");

  auto watch = queues_.next_watch();
  ASSERT_TRUE(watch);
  watch->write_event("MODIFIED", queue_obj("q", "Closing", "root", 3));
  const std::string closed = std::string("PATCH ") + kQ +
                             "/status {\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":"
                             "\"Queue\",\"metadata\":{\"name\":\"q\",\"resourceVersion\":\"3\"},"
                             "\"status\":{\"state\":\"Closed\"}}";
  EXPECT_TRUE(eventually([&] { return wrote(closed); })) << dump_writes();
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
