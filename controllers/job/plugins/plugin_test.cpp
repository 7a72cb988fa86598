#include "controllers/job/plugins/plugin.h"

#include <gtest/gtest.h>

#include "controllers/job/plugins/plugin_test_util.h"
#include "controllers/job/plugins/ssh_plugin.h"

namespace vc::controllers::job::plugins {
namespace {

TEST(MakePlugins, BuildsOneInstancePerEntryInSpecOrderWithArguments) {
  JobSpec spec;
  spec.plugins = {{"env", {}}, {"ssh", {"--ssh-port=2200"}}, {"svc", {}}};
  auto plugins = make_plugins(spec);
  ASSERT_TRUE(plugins.ok()) << plugins.error();
  ASSERT_EQ(plugins->size(), 3u);
  EXPECT_EQ((*plugins)[0]->name(), "env");
  EXPECT_EQ((*plugins)[1]->name(), "ssh");
  EXPECT_EQ((*plugins)[2]->name(), "svc");
  const auto* ssh = dynamic_cast<const SshPlugin*>((*plugins)[1].get());
  ASSERT_NE(ssh, nullptr);
  EXPECT_EQ(ssh->port(), 2200);
}

TEST(MakePlugins, EveryRegisteredNameIsKnown) {
  for (const char* name :
       {"ssh", "env", "svc", "tensorflow", "mpi", "pytorch", "hcclrank", "ray"}) {
    auto plugin = make_plugin(name, {});
    ASSERT_NE(plugin, nullptr) << name;
    EXPECT_EQ(plugin->name(), name);
  }
}

TEST(MakePlugins, UnknownNameFails) {
  JobSpec spec;
  spec.plugins = {{"env", {}}, {"nccl", {}}};
  auto plugins = make_plugins(spec);
  ASSERT_FALSE(plugins.ok());
  EXPECT_EQ(plugins.error(), "failed to get plugin nccl");
}

TEST(MakePlugins, NoPluginsIsAnEmptyList) {
  auto plugins = make_plugins(JobSpec{});
  ASSERT_TRUE(plugins.ok());
  EXPECT_TRUE(plugins->empty());
}

TEST(MakePlugins, BadArgumentsAreLoggedNotFatal) {
  JobSpec spec;
  spec.plugins = {{"ssh", {"--ssh-port=22", "--unknown", "--ssh-key-file-path=/x"}}};
  auto plugins = make_plugins(spec);
  ASSERT_TRUE(plugins.ok()) << plugins.error();
  const auto* ssh = dynamic_cast<const SshPlugin*>((*plugins)[0].get());
  ASSERT_NE(ssh, nullptr);
  EXPECT_EQ(ssh->key_file_path(), SshPlugin::kDefaultKeyPath);  // parsing stopped at --unknown
}

}  // namespace
}  // namespace vc::controllers::job::plugins
