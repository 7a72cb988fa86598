#include "controllers/job/plugins/svc_plugin.h"

#include <gtest/gtest.h>

#include "controllers/job/plugins/plugin_test_util.h"

namespace vc::controllers::job::plugins {
namespace {

using nlohmann::json;
using testing::make_job;
using testing::make_pod;
using testing::make_task;

constexpr const char* kCmPath = "/api/v1/namespaces/ns1/configmaps/job1-svc";
constexpr const char* kSvcPath = "/api/v1/namespaces/ns1/services/job1";
constexpr const char* kNpPath = "/apis/networking.k8s.io/v1/namespaces/ns1/networkpolicies/job1";

Job two_task_job() {
  return make_job("job1", {make_task("master-0", 1), make_task("worker", 2)});
}

TEST(SvcPlugin, HostsDataListsEveryReplicaPerTask) {
  const auto data = svc_hosts_data(two_task_job());
  const std::map<std::string, std::string> expected{
      {"master_0.host", "job1-master-0-0.job1"},
      {"VC_MASTER_0_HOSTS", "job1-master-0-0.job1"},
      {"VC_MASTER_0_NUM", "1"},
      {"worker.host", "job1-worker-0.job1\njob1-worker-1.job1"},
      {"VC_WORKER_HOSTS", "job1-worker-0.job1,job1-worker-1.job1"},
      {"VC_WORKER_NUM", "2"}};
  EXPECT_EQ(data, expected);
}

TEST(SvcPlugin, TemplateHostnameListsTheTaskOnceWithItsSubdomain) {
  const Job job = make_job("job1", {make_task("ps", 3, "pshost", "sub")});
  const auto data = svc_hosts_data(job);
  EXPECT_EQ(data.at("ps.host"), "pshost.sub");
  EXPECT_EQ(data.at("VC_PS_NUM"), "1");
}

TEST(SvcPlugin, PodGetsHostnameSubdomainEnvFromConfigMapAndMount) {
  const Job job = two_task_job();
  json pod = make_pod(job, "worker", 1, /*with_init=*/true);
  SvcPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(pod["spec"]["hostname"], "job1-worker-1");
  EXPECT_EQ(pod["spec"]["subdomain"], "job1");
  auto ref = [](const char* key) {
    return json{{"name", key},
                {"valueFrom", {{"configMapKeyRef", {{"name", "job1-svc"}, {"key", key}}}}}};
  };
  const json env = json::array({ref("VC_MASTER_0_HOSTS"), ref("VC_MASTER_0_NUM"),
                                ref("VC_WORKER_HOSTS"), ref("VC_WORKER_NUM")});
  const json mounts = json::array({{{"name", "job1-svc"}, {"mountPath", "/etc/volcano"}}});
  for (const char* list : {"containers", "initContainers"}) {
    EXPECT_EQ(pod["spec"][list][0]["env"], env) << list;
    EXPECT_EQ(pod["spec"][list][0]["volumeMounts"], mounts) << list;
  }
  EXPECT_EQ(pod["spec"]["volumes"],
            json::array({{{"name", "job1-svc"}, {"configMap", {{"name", "job1-svc"}}}}}));
}

TEST(SvcPlugin, PodKeepsItsOwnHostnameAndSubdomain) {
  const Job job = two_task_job();
  json pod = make_pod(job, "worker", 0);
  pod["spec"]["hostname"] = "custom";
  pod["spec"]["subdomain"] = "dom";
  SvcPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(pod["spec"]["hostname"], "custom");
  EXPECT_EQ(pod["spec"]["subdomain"], "dom");
}

TEST(SvcPlugin, ParsesItsBoolArguments) {
  SvcPlugin plugin({"--publish-not-ready-addresses", "--disable-network-policy=true"});
  EXPECT_TRUE(plugin.publish_not_ready_addresses());
  EXPECT_TRUE(plugin.disable_network_policy());
  SvcPlugin defaults({});
  EXPECT_FALSE(defaults.publish_not_ready_addresses());
  EXPECT_FALSE(defaults.disable_network_policy());
}

TEST(SvcPlugin, JobAddCreatesConfigMapHeadlessServiceAndNetworkPolicyOwnedByTheJob) {
  testing::ObjectStore store;
  const Job job = two_task_job();
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  SvcPlugin plugin({"--publish-not-ready-addresses"});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  EXPECT_EQ(controlled, (std::map<std::string, std::string>{{"plugin-svc", "svc"}}));

  const json owner = json::array({testing::controller_ref(job)});
  const json cm = store.get(kCmPath);
  EXPECT_EQ(cm["kind"], "ConfigMap");
  EXPECT_EQ(cm["metadata"]["ownerReferences"], owner);
  EXPECT_EQ(cm["data"], json(svc_hosts_data(job)));

  const json labels = {{"volcano.sh/job-name", "job1"}, {"volcano.sh/job-namespace", "ns1"}};
  const json svc = store.get(kSvcPath);
  EXPECT_EQ(svc["metadata"]["ownerReferences"], owner);
  EXPECT_EQ(
      svc["spec"],
      json({{"clusterIP", "None"}, {"selector", labels}, {"publishNotReadyAddresses", true}}));

  const json np = store.get(kNpPath);
  EXPECT_EQ(np["apiVersion"], "networking.k8s.io/v1");
  EXPECT_EQ(np["metadata"]["ownerReferences"], owner);
  EXPECT_EQ(np["spec"]["podSelector"], json({{"matchLabels", labels}}));
  EXPECT_EQ(np["spec"]["ingress"],
            json::array({{{"from", json::array({{{"podSelector", {{"matchLabels", labels}}}}})}}}));
  EXPECT_EQ(np["spec"]["policyTypes"], json::array({"Ingress"}));
}

TEST(SvcPlugin, JobAddWhenMarkedDoesNothing) {
  testing::ObjectStore store;
  const Job job = two_task_job();
  std::map<std::string, std::string> controlled{{"plugin-svc", "svc"}};
  PluginEnv env{store.api(), job, controlled};
  SvcPlugin plugin({});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  EXPECT_TRUE(store.calls().empty()) << store.describe_calls();
}

TEST(SvcPlugin, DisabledNetworkPolicyIsNeitherCreatedNorDeleted) {
  testing::ObjectStore store;
  const Job job = two_task_job();
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  SvcPlugin plugin({"--disable-network-policy"});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  EXPECT_FALSE(store.has(kNpPath));
  EXPECT_FALSE(store.get(kSvcPath)["spec"].contains("publishNotReadyAddresses"));
  store.clear_calls();
  ASSERT_EQ(plugin.on_job_delete(env).error(), "");
  for (const std::string& call : store.calls()) {
    EXPECT_EQ(call.find("networkpolicies"), std::string::npos) << call;
  }
}

TEST(SvcPlugin, ExistingServiceAndPolicyAreLeftAloneAndStaleConfigMapIsUpdated) {
  testing::ObjectStore store;
  const Job job = two_task_job();
  store.put(kCmPath, {{"metadata", {{"name", "job1-svc"}, {"namespace", "ns1"}}},
                      {"data", {{"VC_WORKER_NUM", "1"}}}});
  store.put(kSvcPath, {{"metadata", {{"name", "job1"}}}, {"spec", {{"clusterIP", "10.0.0.1"}}}});
  store.put(kNpPath, {{"metadata", {{"name", "job1"}}}, {"spec", json::object()}});
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  SvcPlugin plugin({});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  EXPECT_EQ(store.calls(), (std::vector<std::string>{
                               "GET " + std::string(kCmPath), "PUT " + std::string(kCmPath),
                               "GET " + std::string(kSvcPath), "GET " + std::string(kNpPath)}));
  EXPECT_EQ(store.get(kCmPath)["data"], json(svc_hosts_data(job)));
  EXPECT_EQ(store.get(kSvcPath)["spec"]["clusterIP"], "10.0.0.1");
  EXPECT_EQ(controlled.at("plugin-svc"), "svc");
}

TEST(SvcPlugin, JobUpdateRewritesConfigMapOnlyWhenDataDiffers) {
  testing::ObjectStore store;
  Job job = two_task_job();
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  SvcPlugin plugin({});
  ASSERT_EQ(plugin.on_job_update(env).error(), "");  // recreates a missing ConfigMap
  ASSERT_TRUE(store.has(kCmPath));
  store.clear_calls();
  ASSERT_EQ(plugin.on_job_update(env).error(), "");
  EXPECT_EQ(store.calls(), (std::vector<std::string>{"GET " + std::string(kCmPath)}));

  job.spec.tasks[1].replicas = 3;  // scale-up is reflected
  ASSERT_EQ(plugin.on_job_update(env).error(), "");
  EXPECT_EQ(store.get(kCmPath)["data"]["VC_WORKER_NUM"], "3");
  EXPECT_TRUE(controlled.empty());
}

TEST(SvcPlugin, JobDeleteRemovesObjectsAndMarkAndToleratesMissingOnes) {
  testing::ObjectStore store;
  const Job job = two_task_job();
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  SvcPlugin plugin({});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  ASSERT_EQ(plugin.on_job_delete(env).error(), "");
  EXPECT_FALSE(store.has(kCmPath));
  EXPECT_FALSE(store.has(kSvcPath));
  EXPECT_FALSE(store.has(kNpPath));
  EXPECT_TRUE(controlled.empty());

  controlled["plugin-svc"] = "svc";  // marked, but everything is gone already
  ASSERT_EQ(plugin.on_job_delete(env).error(), "");
  EXPECT_TRUE(controlled.empty());
}

TEST(SvcPlugin, JobDeleteWithoutMarkDoesNothing) {
  testing::ObjectStore store;
  const Job job = two_task_job();
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  SvcPlugin plugin({});
  ASSERT_EQ(plugin.on_job_delete(env).error(), "");
  EXPECT_TRUE(store.calls().empty());
}

TEST(SvcPlugin, ApiErrorsAreReturnedAndKeepTheMarkForRetry) {
  testing::ObjectStore store;
  const Job job = two_task_job();
  std::map<std::string, std::string> controlled{{"plugin-svc", "svc"}};
  PluginEnv env{store.api(), job, controlled};
  store.fail("DELETE", kSvcPath, 403, "Forbidden");
  SvcPlugin plugin({});
  const std::string error = plugin.on_job_delete(env).error();
  EXPECT_NE(error.find("Forbidden"), std::string::npos) << error;
  EXPECT_EQ(controlled.at("plugin-svc"), "svc");

  std::map<std::string, std::string> fresh;
  PluginEnv add_env{store.api(), job, fresh};
  store.fail("GET", kCmPath, 403, "Forbidden");
  EXPECT_FALSE(plugin.on_job_add(add_env).ok());
  EXPECT_TRUE(fresh.empty());
}

}  // namespace
}  // namespace vc::controllers::job::plugins
