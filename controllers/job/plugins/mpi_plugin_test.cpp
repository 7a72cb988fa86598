#include "controllers/job/plugins/mpi_plugin.h"

#include <gtest/gtest.h>

#include "controllers/job/plugins/plugin_test_util.h"

namespace vc::controllers::job::plugins {
namespace {

using nlohmann::json;
using testing::make_job;
using testing::make_pod;
using testing::make_task;

const json kPort = json::array({{{"name", "mpijob-port"}, {"containerPort", 22}}});

TEST(MpiPlugin, MasterGetsWorkerHostsAndPortInEveryContainer) {
  const Job job = make_job("mpi", {make_task("master", 1), make_task("worker", 3)});
  json pod = make_pod(job, "master", 0, /*with_init=*/true);
  MpiPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  const json env = json::array(
      {{{"name", "MPI_HOST"}, {"value", "mpi-worker-0.mpi,mpi-worker-1.mpi,mpi-worker-2.mpi"}}});
  for (const char* list : {"containers", "initContainers"}) {
    EXPECT_EQ(pod["spec"][list][0]["ports"], kPort) << list;
    EXPECT_EQ(pod["spec"][list][0]["env"], env) << list;
  }
}

TEST(MpiPlugin, WorkerGetsOnlyThePortUnlessAlreadyOpen) {
  const Job job = make_job("mpi", {make_task("master", 1), make_task("worker", 2)});
  json pod = make_pod(job, "worker", 1, /*with_init=*/true);
  pod["spec"]["containers"][0]["ports"] = json::array({{{"name", "ssh"}, {"containerPort", 22}}});
  MpiPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(pod["spec"]["containers"][0]["ports"],
            json::array({{{"name", "ssh"}, {"containerPort", 22}}}));
  EXPECT_EQ(pod["spec"]["initContainers"][0]["ports"], kPort);
  EXPECT_FALSE(pod["spec"]["containers"][0].contains("env"));
}

TEST(MpiPlugin, TemplateHostnameGivesOneWorkerHost) {
  const Job job = make_job("mpi", {make_task("m", 1), make_task("w", 4, "wh", "")});
  json pod = make_pod(job, "m", 0);
  MpiPlugin plugin({"--master=m", "--worker=w", "--port=2222"});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(pod["spec"]["containers"][0]["env"],
            json::array({{{"name", "MPI_HOST"}, {"value", "wh.mpi"}}}));
  EXPECT_EQ(pod["spec"]["containers"][0]["ports"][0]["containerPort"], 2222);
}

TEST(MpiPlugin, MasterOfJobWithoutWorkerTaskIsLeftUnchanged) {
  const Job job = make_job("mpi", {make_task("master", 1)});
  json pod = make_pod(job, "master", 0);
  const json before = pod;
  MpiPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(pod, before);
}

TEST(MpiPlugin, MarkOnlyJobHooks) {
  testing::ObjectStore store;
  const Job job = make_job("mpi", {make_task("master", 1)});
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  MpiPlugin plugin({});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  EXPECT_EQ(controlled.at("plugin-mpi"), "mpi");
  ASSERT_EQ(plugin.on_job_delete(env).error(), "");
  EXPECT_TRUE(controlled.empty());
  EXPECT_TRUE(store.calls().empty());
}

}  // namespace
}  // namespace vc::controllers::job::plugins
