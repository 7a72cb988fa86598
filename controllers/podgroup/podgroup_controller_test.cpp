#include "controllers/podgroup/podgroup_controller.h"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "common/kube/events/fake_recorder.h"
#include "common/testing/eventually.h"
#include "common/testing/fake_apiserver.h"

namespace vc::controllers::podgroup {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using vc::testing::FakeApiServer;
using vc::testing::Reply;
using vc::testing::Request;
using vc::testing::Response;
using vc::testing::StreamQueue;

json pod(const std::string& name, const std::string& scheduler, const std::string& group = "") {
  json p = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata",
       {{"name", name}, {"namespace", "ns"}, {"uid", "uid-" + name}, {"resourceVersion", "5"}}},
      {"spec", {{"schedulerName", scheduler}}},
      {"status", {{"phase", "Pending"}}}};
  if (!group.empty()) p["metadata"]["annotations"] = {{"scheduling.k8s.io/group-name", group}};
  return p;
}

json list_of(const char* kind, json items) {
  return {{"kind", kind},
          {"apiVersion", "v1"},
          {"metadata", {{"resourceVersion", "10"}}},
          {"items", std::move(items)}};
}

// The whole controller on real informers against a fake API server: of three listed pods only
// the ungrouped one of our scheduler gets a PodGroup and is joined to it.
TEST(PodGroupController, ListedUngroupedPodGetsAPodGroupAndIsJoined) {
  FakeApiServer server;
  StreamQueue watches;
  std::mutex mu;
  std::vector<std::string> writes;  // "POST <name>" / "PATCH <path>"
  server.handle("GET", "/api/v1/pods", [&](const Request& r) -> Reply {
    if (r.param("watch") == "1") return watches.open();
    return Response::json(
        200, list_of("PodList", {pod("bare", "volcano"), pod("other", "default-scheduler"),
                                 pod("grouped", "volcano", "job-pg")}));
  });
  server.handle("GET", "/apis/scheduling.volcano.sh/v1beta1/podgroups",
                [&](const Request& r) -> Reply {
                  if (r.param("watch") == "1") return watches.open();
                  return Response::json(200, list_of("PodGroupList", json::array()));
                });
  server.handle("POST", "/apis/scheduling.volcano.sh/v1beta1/namespaces/ns/podgroups",
                [&](const Request& r) -> Reply {
                  std::lock_guard lock(mu);
                  writes.push_back("POST " + r.json()["metadata"]["name"].get<std::string>());
                  return Response::json(201, r.json());
                });
  server.handle_prefix("PATCH", "/api/v1/namespaces/ns/pods/", [&](const Request& r) -> Reply {
    std::lock_guard lock(mu);
    writes.push_back("PATCH " + r.path);
    return Response::json(200, json::object());
  });

  kube::Client client(server.config());
  kube::cache::SharedInformerFactory factory(client);
  kube::events::FakeRecorder recorder;
  ControllerOptions options;
  options.workload_support = false;
  options.worker_threads_for_podgroup = 2;
  ControllerContext ctx{client, factory, recorder, options};

  auto controller = make_podgroup_controller();
  ASSERT_NE(controller, nullptr);
  EXPECT_EQ(controller->name(), "pg-controller");
  ASSERT_EQ(controller->initialize(ctx).error(), "");
  factory.start();
  ASSERT_TRUE(factory.wait_for_sync({}, std::chrono::steady_clock::now() + 10s));
  controller->run();

  std::vector<std::string> seen;
  vc::testing::eventually([&] {
    std::lock_guard lock(mu);
    return writes.size() >= 2;
  });
  controller->stop();
  factory.stop();
  {
    std::lock_guard lock(mu);
    seen = writes;  // also catches writes made after the first two
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"POST podgroup-uid-bare",
                                            "PATCH /api/v1/namespaces/ns/pods/bare"}))
      << server.describe_requests();
}

}  // namespace
}  // namespace vc::controllers::podgroup
