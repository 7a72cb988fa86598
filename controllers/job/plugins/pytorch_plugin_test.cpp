#include "controllers/job/plugins/pytorch_plugin.h"

#include <gtest/gtest.h>

#include "controllers/job/plugins/plugin_test_util.h"

namespace vc::controllers::job::plugins {
namespace {

using nlohmann::json;
using testing::make_job;
using testing::make_pod;
using testing::make_task;

Job pytorch_job() {
  return make_job("pt", {make_task("master", 1), make_task("worker", 3)});
}

json env_list(const std::string& rank) {
  json env = json::array({{{"name", "MASTER_ADDR"}, {"value", "pt-master-0.pt"}},
                          {{"name", "MASTER_PORT"}, {"value", "23456"}},
                          {{"name", "WORLD_SIZE"}, {"value", "4"}}});
  if (!rank.empty()) env.push_back({{"name", "RANK"}, {"value", rank}});
  return env;
}

TEST(PytorchPlugin, MasterGetsPortAndRankZero) {
  const Job job = pytorch_job();
  json pod = make_pod(job, "master", 0);
  PytorchPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  const json& c = pod["spec"]["containers"][0];
  EXPECT_EQ(c["ports"], json::array({{{"name", "pytorchjob-port"}, {"containerPort", 23456}}}));
  EXPECT_EQ(c["env"], env_list("0"));
  EXPECT_FALSE(pod["spec"].contains("initContainers"));
}

TEST(PytorchPlugin, WorkerRankIsIndexPlusOneAndExistingPortIsKept) {
  const Job job = pytorch_job();
  json pod = make_pod(job, "worker", 2);
  pod["spec"]["containers"][0]["ports"] =
      json::array({{{"name", "mine"}, {"containerPort", 23456}}});
  PytorchPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  const json& c = pod["spec"]["containers"][0];
  EXPECT_EQ(c["ports"], json::array({{{"name", "mine"}, {"containerPort", 23456}}}));
  EXPECT_EQ(c["env"], env_list("3"));
}

TEST(PytorchPlugin, OtherTasksGetNoRank) {
  const Job job =
      make_job("pt", {make_task("master", 1), make_task("worker", 3), make_task("logger", 1)});
  json pod = make_pod(job, "logger", 0);
  PytorchPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(pod["spec"]["containers"][0]["env"], env_list(""));
}

TEST(PytorchPlugin, JobWithoutMasterTaskIsLeftUnchanged) {
  const Job job = make_job("pt", {make_task("worker", 2)});
  json pod = make_pod(job, "worker", 0);
  const json before = pod;
  PytorchPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(pod, before);
}

TEST(PytorchPlugin, CustomNamesPortAndMasterHostname) {
  const Job job = make_job("pt", {make_task("chief", 1, "boss", "net"), make_task("w", 2)});
  json pod = make_pod(job, "w", 1);
  PytorchPlugin plugin({"--master=chief", "--worker=w", "--port=1234"});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  const json& c = pod["spec"]["containers"][0];
  EXPECT_EQ(c["ports"][0]["containerPort"], 1234);
  EXPECT_EQ(c["env"], json::array({{{"name", "MASTER_ADDR"}, {"value", "boss.net"}},
                                   {{"name", "MASTER_PORT"}, {"value", "1234"}},
                                   {{"name", "WORLD_SIZE"}, {"value", "3"}},
                                   {{"name", "RANK"}, {"value", "2"}}}));
}

TEST(PytorchPlugin, WaitForMasterInitContainerOnWorkersOnly) {
  const Job job = pytorch_job();
  PytorchPlugin plugin(
      {"--wait-master-enabled", "--wait-master-timeout=60", "--wait-master-image=busybox:latest"});
  const std::string script =
      "echo \"Waiting for master node pt-master-0.pt:23456 to be ready...\"\n"
      "TIMEOUT=60\n"
      "ELAPSED=0\n"
      "until { nc -z pt-master-0.pt 23456 || echo > /dev/tcp/pt-master-0.pt/23456; } "
      "2>/dev/null; do\n"
      "  if [ $ELAPSED -ge $TIMEOUT ]; then\n"
      "    echo \"Timeout waiting for master after ${TIMEOUT} seconds\"\n"
      "    exit 1\n"
      "  fi\n"
      "  echo \"Master not ready yet, retrying in 2 seconds... (elapsed: ${ELAPSED}s)\"\n"
      "  sleep 2\n"
      "  ELAPSED=$((ELAPSED + 2))\n"
      "done\n"
      "echo \"Master node is ready!\"";
  EXPECT_EQ(plugin.wait_for_master_script("pt-master-0.pt"), script);

  json worker = make_pod(job, "worker", 0, /*with_init=*/true);
  ASSERT_EQ(plugin.on_pod_create(worker, job).error(), "");
  const json& inits = worker["spec"]["initContainers"];
  ASSERT_EQ(inits.size(), 2u) << inits.dump();
  EXPECT_EQ(inits[1], json({{"name", "wait-for-master"},
                            {"image", "busybox:latest"},
                            {"command", json::array({"sh", "-c", script})}}));
  EXPECT_FALSE(inits[0].contains("env")) << "init containers get no env";

  json again = worker;  // an existing wait-for-master container is not duplicated
  ASSERT_EQ(plugin.on_pod_create(again, job).error(), "");
  EXPECT_EQ(again["spec"]["initContainers"].size(), 2u);

  json master = make_pod(job, "master", 0);
  ASSERT_EQ(plugin.on_pod_create(master, job).error(), "");
  EXPECT_FALSE(master["spec"].contains("initContainers"));
}

TEST(PytorchPlugin, WorkerWithNonNumericIndexFails) {
  const Job job = pytorch_job();
  json pod = make_pod(job, "worker", 0);
  pod["metadata"]["name"] = "pt-worker-x";
  PytorchPlugin plugin({});
  EXPECT_EQ(plugin.on_pod_create(pod, job).error(), "strconv.Atoi: parsing \"x\": invalid syntax");
}

TEST(PytorchPlugin, MarkOnlyJobHooks) {
  testing::ObjectStore store;
  const Job job = pytorch_job();
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  PytorchPlugin plugin({});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  EXPECT_EQ(controlled.at("plugin-pytorch"), "pytorch");
  ASSERT_EQ(plugin.on_job_delete(env).error(), "");
  EXPECT_TRUE(controlled.empty());
  EXPECT_TRUE(store.calls().empty());
}

}  // namespace
}  // namespace vc::controllers::job::plugins
