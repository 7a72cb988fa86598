#include "controllers/job/plugins/tensorflow_plugin.h"

#include <gtest/gtest.h>

#include "controllers/job/plugins/plugin_test_util.h"

namespace vc::controllers::job::plugins {
namespace {

using nlohmann::json;
using testing::make_job;
using testing::make_pod;
using testing::make_task;

std::string tf_config_of(const json& pod) {
  const json& env = pod["spec"]["containers"][0]["env"];
  if (env.size() != 1 || env[0]["name"] != "TF_CONFIG")
    return "<unexpected env: " + env.dump() + ">";
  return env[0]["value"];
}

TEST(TensorflowPlugin, TfConfigListsRolesInGoOrderWithTaskTypeAndIndex) {
  const Job job = make_job("tf", {make_task("worker", 2), make_task("ps", 1), make_task("chief", 1),
                                  make_task("evaluator", 0)});
  json pod = make_pod(job, "worker", 1, /*with_init=*/true);
  TensorflowPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(tf_config_of(pod),
            "{\"cluster\":{\"ps\":[\"tf-ps-0.tf:2222\"],"
            "\"worker\":[\"tf-worker-0.tf:2222\",\"tf-worker-1.tf:2222\"],"
            "\"chief\":[\"tf-chief-0.tf:2222\"]},"
            "\"task\":{\"type\":\"worker\",\"index\":1}}");
  EXPECT_FALSE(pod["spec"]["initContainers"][0].contains("env")) << "containers only";
}

TEST(TensorflowPlugin, CustomRoleNamesMapToCanonicalTypesAndOtherTasksKeepTheirName) {
  const Job job =
      make_job("tf", {make_task("server", 2), make_task("trainer", 2), make_task("board", 1)});
  TensorflowPlugin plugin({"--ps=server", "--worker=trainer", "--port=3333"});
  json ps = make_pod(job, "server", 0);
  ASSERT_EQ(plugin.on_pod_create(ps, job).error(), "");
  EXPECT_EQ(tf_config_of(ps),
            "{\"cluster\":{\"ps\":[\"tf-server-0.tf:3333\",\"tf-server-1.tf:3333\"],"
            "\"worker\":[\"tf-trainer-0.tf:3333\",\"tf-trainer-1.tf:3333\"]},"
            "\"task\":{\"type\":\"ps\",\"index\":0}}");
  json board = make_pod(job, "board", 0);
  ASSERT_EQ(plugin.on_pod_create(board, job).error(), "");
  EXPECT_NE(tf_config_of(board).find("\"task\":{\"type\":\"board\",\"index\":0}"),
            std::string::npos);
}

TEST(TensorflowPlugin, TemplateHostnameIsRepeatedForEveryReplica) {
  const Job job = make_job("tf", {make_task("worker", 2, "w", "sub"), make_task("ps", 1)});
  json pod = make_pod(job, "ps", 0);
  TensorflowPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_NE(tf_config_of(pod).find("\"worker\":[\"w.sub:2222\",\"w.sub:2222\"]"), std::string::npos)
      << tf_config_of(pod);
}

TEST(TensorflowPlugin, SinglePodJobIsSkipped) {
  const Job job = make_job("tf", {make_task("worker", 1)});
  json pod = make_pod(job, "worker", 0);
  const json before = pod;
  TensorflowPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(pod, before);
}

}  // namespace
}  // namespace vc::controllers::job::plugins
