#include "controllers/job/plugins/ray_plugin.h"

#include <gtest/gtest.h>

#include "controllers/job/plugins/plugin_test_util.h"

namespace vc::controllers::job::plugins {
namespace {

using nlohmann::json;
using testing::make_job;
using testing::make_pod;
using testing::make_task;

constexpr const char* kSvcPath = "/api/v1/namespaces/ns1/services/ray1-head-svc";

Job ray_job() {
  return make_job("ray1", {make_task("head", 1), make_task("worker", 2)});
}

json with_container_name(json pod, const std::string& name) {
  pod["spec"]["containers"][0]["name"] = name;
  pod["spec"]["containers"].push_back({{"name", "sidecar"}, {"image", "busybox"}});
  return pod;
}

TEST(RayPlugin, HeadContainerGetsPortsAndHeadCommand) {
  const Job job = ray_job();
  json pod = with_container_name(make_pod(job, "head", 0), "head");
  pod["spec"]["containers"][0]["ports"] = json::array({{{"name", "d"}, {"containerPort", 8265}}});
  RayPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  const json& c = pod["spec"]["containers"][0];
  EXPECT_EQ(c["ports"], json::array({{{"name", "d"}, {"containerPort", 8265}},
                                     {{"name", "gcs"}, {"containerPort", 6379}},
                                     {{"name", "client-server"}, {"containerPort", 10001}}}));
  EXPECT_EQ(c["command"], json::array({"sh", "-c",
                                       "ray start --head --block --dashboard-host=0.0.0.0 "
                                       "--port=6379 --dashboard-port=8265 "
                                       "--ray-client-server-port=10001"}));
  EXPECT_EQ(pod["spec"]["containers"][1], json({{"name", "sidecar"}, {"image", "busybox"}}));
}

TEST(RayPlugin, WorkerContainerGetsAddressOfHead) {
  const Job job = make_job("ray1", {make_task("h", 1, "", "net"), make_task("w", 2)});
  json pod = with_container_name(make_pod(job, "w", 1), "ray");
  RayPlugin plugin({"--head=h", "--worker=w", "--workerContainer=ray", "--port=7000"});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(pod["spec"]["containers"][0]["command"],
            json::array({"sh", "-c", "ray start --block --address=ray1-h-0.net:7000"}));
  EXPECT_FALSE(pod["spec"]["containers"][0].contains("ports"));
  EXPECT_FALSE(pod["spec"]["containers"][1].contains("command"));
}

TEST(RayPlugin, ContainerWithAnotherNameIsUntouched) {
  const Job job = ray_job();
  json pod = make_pod(job, "head", 0);  // container "main", not "head"
  const json before = pod;
  RayPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(pod, before);
}

TEST(RayPlugin, JobWithoutHeadTaskFailsPodCreation) {
  const Job job = make_job("ray1", {make_task("worker", 2)});
  json pod = make_pod(job, "worker", 0);
  RayPlugin plugin({});
  EXPECT_EQ(plugin.on_pod_create(pod, job).error(), "job ray1 doesn't have head task head");
}

TEST(RayPlugin, JobAddCreatesHeadServiceAndDeleteRemovesIt) {
  testing::ObjectStore store;
  const Job job = ray_job();
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  RayPlugin plugin({"--dashboardPort=9000"});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  EXPECT_EQ(controlled.at("plugin-ray"), "ray");
  const json svc = store.get(kSvcPath);
  EXPECT_EQ(svc["metadata"]["ownerReferences"], json::array({testing::controller_ref(job)}));
  EXPECT_EQ(
      svc["spec"],
      json({{"selector",
             {{"volcano.sh/job-name", "ray1"},
              {"volcano.sh/job-namespace", "ns1"},
              {"volcano.sh/task-spec", "head"}}},
            {"ports",
             json::array(
                 {{{"name", "gcs"}, {"port", 6379}, {"targetPort", "gcs"}, {"protocol", "TCP"}},
                  {{"name", "dashboard"},
                   {"port", 9000},
                   {"targetPort", "dashboard"},
                   {"protocol", "TCP"}},
                  {{"name", "client-server"},
                   {"port", 10001},
                   {"targetPort", "client-server"},
                   {"protocol", "TCP"}}})}}));

  store.clear_calls();
  ASSERT_EQ(plugin.on_job_add(env).error(), "");  // marked now
  EXPECT_TRUE(store.calls().empty());

  ASSERT_EQ(plugin.on_job_delete(env).error(), "");
  EXPECT_FALSE(store.has(kSvcPath));
  EXPECT_TRUE(controlled.empty());
}

TEST(RayPlugin, ExistingServiceIsKeptAndCreateRaceIsFine) {
  testing::ObjectStore store;
  const Job job = ray_job();
  store.put(kSvcPath,
            {{"metadata", {{"name", "ray1-head-svc"}}}, {"spec", {{"type", "NodePort"}}}});
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  RayPlugin plugin({});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  EXPECT_EQ(store.get(kSvcPath)["spec"]["type"], "NodePort");
  EXPECT_EQ(store.calls(), (std::vector<std::string>{"GET " + std::string(kSvcPath)}));
}

TEST(RayPlugin, DeleteErrorIsReturnedAndMarkKept) {
  testing::ObjectStore store;
  const Job job = ray_job();
  store.fail("DELETE", kSvcPath, 403, "Forbidden");
  std::map<std::string, std::string> controlled{{"plugin-ray", "ray"}};
  PluginEnv env{store.api(), job, controlled};
  RayPlugin plugin({});
  EXPECT_FALSE(plugin.on_job_delete(env).ok());
  EXPECT_EQ(controlled.at("plugin-ray"), "ray");
}

}  // namespace
}  // namespace vc::controllers::job::plugins
