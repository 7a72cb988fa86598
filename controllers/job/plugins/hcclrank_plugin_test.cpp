#include "controllers/job/plugins/hcclrank_plugin.h"

#include <map>
#include <string>

#include <gtest/gtest.h>

#include "controllers/job/plugins/plugin_test_util.h"

namespace vc::controllers::job::plugins {
namespace {

using nlohmann::json;
using testing::make_job;
using testing::make_pod;
using testing::make_task;

std::string rank_of(const json& pod) {
  return pod["metadata"]["annotations"].value(kHcclRankAnnotation, "<none>");
}

TEST(HcclRankPlugin, MasterRankIsItsIndexAndWorkerRankFollowsMasters) {
  const Job job = make_job("h", {make_task("master", 2), make_task("worker", 4)});
  HcclRankPlugin plugin({});
  json master = make_pod(job, "master", 1);
  ASSERT_EQ(plugin.on_pod_create(master, job).error(), "");
  EXPECT_EQ(rank_of(master), "1");
  json worker = make_pod(job, "worker", 3);
  ASSERT_EQ(plugin.on_pod_create(worker, job).error(), "");
  EXPECT_EQ(rank_of(worker), "5");
}

TEST(HcclRankPlugin, RankEnvWinsOverTheIndex) {
  const Job job = make_job("h", {make_task("master", 1), make_task("worker", 4)});
  json pod = make_pod(job, "worker", 0);
  pod["spec"]["containers"][0]["env"] = json::array({{{"name", "RANK"}, {"value", "7"}}});
  HcclRankPlugin plugin({});
  ASSERT_EQ(plugin.on_pod_create(pod, job).error(), "");
  EXPECT_EQ(rank_of(pod), "7");
}

TEST(HcclRankPlugin, ExistingAnnotationAndOtherTasksAreLeftAlone) {
  const Job job = make_job("h", {make_task("master", 1), make_task("other", 1)});
  HcclRankPlugin plugin({});
  json set = make_pod(job, "master", 0);
  set["metadata"]["annotations"][kHcclRankAnnotation] = "42";
  ASSERT_EQ(plugin.on_pod_create(set, job).error(), "");
  EXPECT_EQ(rank_of(set), "42");
  json other = make_pod(job, "other", 0);
  ASSERT_EQ(plugin.on_pod_create(other, job).error(), "");
  EXPECT_EQ(rank_of(other), "<none>");
}

TEST(HcclRankPlugin, MissingOrBadIndexLabelIsAnError) {
  const Job job = make_job("h", {make_task("master", 1)});
  HcclRankPlugin plugin({"--master=master"});
  json pod = make_pod(job, "master", 0);
  pod["metadata"]["labels"].erase(keys::kTaskIndex);
  EXPECT_EQ(plugin.on_pod_create(pod, job).error(),
            "pod h-master-0 doesn't have volcano.sh/task-index label");
  pod["metadata"]["labels"][keys::kTaskIndex] = "x";
  EXPECT_EQ(plugin.on_pod_create(pod, job).error(),
            "failed to parse task index for pod h-master-0: strconv.Atoi: parsing \"x\": invalid "
            "syntax");
}

TEST(HcclRankPlugin, JobHooksKeepNoMarkAndMakeNoApiCalls) {
  testing::ObjectStore store;
  const Job job = make_job("h", {make_task("master", 1)});
  std::map<std::string, std::string> controlled;
  PluginEnv env{store.api(), job, controlled};
  HcclRankPlugin plugin({});
  ASSERT_EQ(plugin.on_job_add(env).error(), "");
  ASSERT_EQ(plugin.on_job_update(env).error(), "");
  EXPECT_TRUE(controlled.empty());
  controlled["plugin-hcclrank"] = "hcclrank";
  ASSERT_EQ(plugin.on_job_delete(env).error(), "");
  EXPECT_EQ(controlled.at("plugin-hcclrank"), "hcclrank");
  EXPECT_TRUE(store.calls().empty()) << store.describe_calls();
}

}  // namespace
}  // namespace vc::controllers::job::plugins
