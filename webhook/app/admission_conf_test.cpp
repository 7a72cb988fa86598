#include "webhook/app/admission_conf.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "common/testing/temp_dir.h"
#include "webhook/app/app_test_util.h"

namespace vc::webhook::app {
namespace {

using namespace std::chrono_literals;

std::string groups_yaml(int n) {
  std::string yaml = "resourceGroups:\n";
  for (int i = 0; i < n; ++i) {
    yaml += "- resourceGroup: g" + std::to_string(i) +
            "\n  object:\n    key: namespace\n    value: [ns" + std::to_string(i) +
            "]\n  schedulerName: s\n";
  }
  return yaml;
}

int groups(const LiveOptions& live) {
  const auto config = live.current()->pod_admission_config;
  return config ? static_cast<int>(config->resource_groups.size()) : -1;
}

class AdmissionConfWatcherTest : public ::testing::Test {
 protected:
  vc::testing::TempDir dir;
  std::shared_ptr<LiveOptions> live = std::make_shared<LiveOptions>(AdmissionOptions{});
};

TEST_F(AdmissionConfWatcherTest, LoadsTheFileAtStart) {
  const std::string path = dir.write("conf.yaml", groups_yaml(2));
  AdmissionConfWatcher watcher(path, live);
  EXPECT_TRUE(watcher.load_initial());
  EXPECT_EQ(groups(*live), 2);
}

TEST_F(AdmissionConfWatcherTest, MissingOrInvalidFileAtStartLeavesPodsMutateOff) {
  AdmissionConfWatcher missing((dir.path() / "nope.yaml").string(), live);
  EXPECT_FALSE(missing.load_initial());
  EXPECT_EQ(groups(*live), -1);
  const std::string path = dir.write("bad.yaml", "resourceGroups: {not: a list}\n");
  AdmissionConfWatcher bad(path, live);
  EXPECT_FALSE(bad.load_initial());
  EXPECT_EQ(groups(*live), -1);
}

TEST_F(AdmissionConfWatcherTest, ChangedContentIsPublishedAndBadContentKeepsTheOld) {
  const std::string path = dir.write("conf.yaml", groups_yaml(1));
  AdmissionConfWatcher watcher(path, live);
  ASSERT_TRUE(watcher.load_initial());
  EXPECT_FALSE(watcher.poll());  // unchanged
  dir.write("conf.yaml", groups_yaml(3));
  EXPECT_TRUE(watcher.poll());
  EXPECT_EQ(groups(*live), 3);
  dir.write("conf.yaml", "resourceGroups: [\n");
  EXPECT_FALSE(watcher.poll());
  EXPECT_EQ(groups(*live), 3);
  std::filesystem::remove(path);
  EXPECT_FALSE(watcher.poll());
  EXPECT_EQ(groups(*live), 3);
}

TEST_F(AdmissionConfWatcherTest, AFileFixedAfterStartTurnsPodsMutateOn) {
  const std::string path = dir.write("conf.yaml", "resourceGroups: 3\n");
  AdmissionConfWatcher watcher(path, live);
  ASSERT_FALSE(watcher.load_initial());
  dir.write("conf.yaml", groups_yaml(1));
  EXPECT_TRUE(watcher.poll());
  EXPECT_EQ(groups(*live), 1);
}

TEST_F(AdmissionConfWatcherTest, BackgroundPollingPicksUpChanges) {
  const std::string path = dir.write("conf.yaml", groups_yaml(1));
  AdmissionConfWatcher watcher(path, live, 10ms);
  ASSERT_TRUE(watcher.load_initial());
  watcher.start();
  // A ConfigMap update swaps a symlink; a rename over the file is the same for a reader.
  const std::string next = dir.write("conf.yaml.tmp", groups_yaml(4));
  std::filesystem::rename(next, path);
  EXPECT_TRUE(test::wait_until([&] { return groups(*live) == 4; })) << "groups: " << groups(*live);
  watcher.stop();
}

}  // namespace
}  // namespace vc::webhook::app
