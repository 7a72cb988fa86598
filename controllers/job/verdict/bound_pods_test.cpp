#include "controllers/job/verdict/bound_pods.h"

#include <gtest/gtest.h>

#include "controllers/explain/cluster_room.h"
#include "controllers/views/pod_view.h"

namespace vc::controllers::job::verdict {
namespace {

using nlohmann::json;

json pod(const std::string& name, const std::string& node, const std::string& phase) {
  json p = {{"metadata", {{"name", name}, {"namespace", "ns"}, {"uid", name}}},
            {"spec",
             {{"containers",
               json::array({{{"name", "main"},
                             {"resources", {{"requests", {{"cpu", "500m"}, {"memory", "1Gi"}}}}}},
                            {{"name", "side"}, {"resources", {{"requests", {{"cpu", "250m"}}}}}}})},
              {"initContainers",
               json::array({{{"name", "init"}, {"resources", {{"requests", {{"cpu", "2"}}}}}}})},
              {"overhead", {{"cpu", "100m"}}}}},
            {"status", {{"phase", phase}}}};
  if (!node.empty()) p["spec"]["nodeName"] = node;
  return p;
}

kube::cache::ObjectPtr view(const json& p) {
  return views::make_pod_view(p);
}

TEST(BoundPods, KeepsPodsThatTakeRoomWithTheirEffectiveRequests) {
  const json running = pod("running", "n1", "Running");
  json deleting = pod("deleting", "n1", "Running");
  deleting["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z";
  const auto out =
      bound_pods({view(running), view(pod("unbound", "", "Pending")),
                  view(pod("done", "n1", "Succeeded")), view(pod("failed", "n2", "Failed")),
                  view(deleting), view(pod("pending-on-node", "n2", "Pending"))});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0]["metadata"]["name"], "running");
  EXPECT_EQ(out[0]["spec"]["nodeName"], "n1");
  EXPECT_EQ(out[1]["metadata"]["name"], "pending-on-node");
  // The room count reads the same requests from the slim pod as from the whole one: the init
  // container's 2 CPUs dominate, plus overhead.
  EXPECT_EQ(explain::pod_requests_of(out[0]), explain::pod_requests_of(running));
  EXPECT_EQ(explain::pod_requests_of(out[0]).at("cpu").to_string(), "2100m");
}

TEST(BoundPods, SkipsWhatIsNotAPodView) {
  auto plain = std::make_shared<kube::cache::Object>();
  plain->name = "x";
  EXPECT_TRUE(bound_pods({plain, nullptr}).empty());
}

}  // namespace
}  // namespace vc::controllers::job::verdict
