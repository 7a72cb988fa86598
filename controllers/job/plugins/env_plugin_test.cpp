#include "controllers/job/plugins/env_plugin.h"

#include <gtest/gtest.h>

#include "controllers/job/plugins/plugin_test_util.h"

namespace vc::controllers::job::plugins {
namespace {

using nlohmann::json;
using testing::make_job;
using testing::make_pod;
using testing::make_task;

TEST(EnvPlugin, AddsBothIndexVariablesToEveryContainerAndInitContainer) {
  const Job job = make_job("job1", {make_task("worker", 3)});
  json pod = make_pod(job, "worker", 2, /*with_init=*/true);
  pod["spec"]["containers"][0]["env"] = json::array({{{"name", "A"}, {"value", "1"}}});
  EnvPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  const json expected = json::array({{{"name", "A"}, {"value", "1"}},
                                     {{"name", "VK_TASK_INDEX"}, {"value", "2"}},
                                     {{"name", "VC_TASK_INDEX"}, {"value", "2"}}});
  EXPECT_EQ(pod["spec"]["containers"][0]["env"], expected);
  EXPECT_EQ(pod["spec"]["initContainers"][0]["env"],
            json::array({{{"name", "VK_TASK_INDEX"}, {"value", "2"}},
                         {{"name", "VC_TASK_INDEX"}, {"value", "2"}}}));
}

TEST(EnvPlugin, IndexIsTheLastDashSegmentOfAHyphenatedJobName) {
  const Job job = make_job("my-big-job", {make_task("w-1", 12)});
  json pod = make_pod(job, "w-1", 11);
  EnvPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(pod["spec"]["containers"][0]["env"][1],
            json({{"name", "VC_TASK_INDEX"}, {"value", "11"}}));
}

TEST(EnvPlugin, PodNameWithFewerThanThreeSegmentsGetsEmptyValue) {
  const Job job = make_job("job1", {make_task("w", 1)});
  json pod = make_pod(job, "w", 0);
  pod["metadata"]["name"] = "solo-pod";
  EnvPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  // Go omits an empty value.
  EXPECT_EQ(pod["spec"]["containers"][0]["env"][0], json({{"name", "VK_TASK_INDEX"}}));
}

TEST(EnvPlugin, MarksOnAddAndUnmarksOnDeleteWithoutApiCalls) {
  testing::ObjectStore store;
  const Job job = make_job("job1", {make_task("w", 1)});
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  EnvPlugin plugin({});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  EXPECT_EQ(controlled, (std::map<std::string, std::string>{{"plugin-env", "env"}}));
  ASSERT_EQ(plugin.on_job_update(env).error(), "");
  ASSERT_EQ(plugin.on_job_delete(env).error(), "");
  EXPECT_TRUE(controlled.empty());
  EXPECT_TRUE(store.calls().empty()) << store.describe_calls();
}

TEST(EnvPlugin, DeleteLeavesAForeignValueUnderTheMarkKey) {
  testing::ObjectStore store;
  const Job job = make_job("job1", {make_task("w", 1)});
  std::map<std::string, std::string> controlled{{"plugin-env", "other"}};
  PluginEnv env{store.api(), job, controlled};
  EnvPlugin plugin({});
  ASSERT_EQ(plugin.on_job_delete(env).error(), "");
  EXPECT_EQ(controlled.at("plugin-env"), "other");
}

}  // namespace
}  // namespace vc::controllers::job::plugins
