#include "controllers/job/model/command.h"

#include <gtest/gtest.h>

namespace vc::controllers::job {
namespace {

using nlohmann::json;

// What the controller makes of a Command the API server sends: the informer's command-view
// transform decodes it (and skips one that does not decode), then job_command reads it.
std::optional<JobCommand> job_command_from_json(const json& command) {
  auto c = volcano::command_from_json(command);
  return c ? job_command(*c) : std::nullopt;
}

json abort_command() {
  return json::parse(R"({
    "apiVersion": "bus.volcano.sh/v1alpha1",
    "kind": "Command",
    "metadata": {"name": "job1-abortjob-x7k2p", "namespace": "ns", "uid": "c-1",
                 "generateName": "job1-abortjob-"},
    "action": "AbortJob",
    "reason": "user request",
    "message": "abort it",
    "target": {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job", "name": "job1",
               "uid": "j-1", "controller": true}
  })");
}

TEST(JobCommandFromJson, ReadsACommandTargetingAJob) {
  const auto cmd = job_command_from_json(abort_command());
  ASSERT_TRUE(cmd.has_value());
  EXPECT_EQ(*cmd, (JobCommand{"ns", "job1-abortjob-x7k2p", "c-1", "AbortJob", "job1", "j-1"}));
}

TEST(JobCommandFromJson, KeepsAnyActionVerbatim) {
  json c = abort_command();
  c["action"] = "NotAnAction";
  ASSERT_TRUE(job_command_from_json(c).has_value());
  EXPECT_EQ(job_command_from_json(c)->action, "NotAnAction");
  c.erase("action");
  ASSERT_TRUE(job_command_from_json(c).has_value());
  EXPECT_EQ(job_command_from_json(c)->action, "");
}

TEST(JobCommandFromJson, IgnoresCommandsNotTargetingABatchJob) {
  json c = abort_command();
  c.erase("target");
  EXPECT_FALSE(job_command_from_json(c).has_value()) << "no target";
  c = abort_command();
  c["target"] = nullptr;
  EXPECT_FALSE(job_command_from_json(c).has_value()) << "null target";
  c = abort_command();
  c["target"]["kind"] = "Queue";
  c["target"]["apiVersion"] = "scheduling.volcano.sh/v1beta1";
  EXPECT_FALSE(job_command_from_json(c).has_value()) << "queue command";
  c = abort_command();
  c["target"]["apiVersion"] = "batch/v1";
  EXPECT_FALSE(job_command_from_json(c).has_value()) << "a batch/v1 Job";
  c = abort_command();
  c["target"]["apiVersion"] = "batch.volcano.sh/v1beta1";
  EXPECT_FALSE(job_command_from_json(c).has_value()) << "other version";
  c = abort_command();
  c["target"]["kind"] = "job";
  EXPECT_FALSE(job_command_from_json(c).has_value()) << "kind is case-sensitive";
}

TEST(JobCommandFromJson, MistypedFieldsAreNotACommand) {
  json c = abort_command();
  c["action"] = 1;
  EXPECT_FALSE(job_command_from_json(c).has_value());
  c = abort_command();
  c["target"]["name"] = json::array();
  EXPECT_FALSE(job_command_from_json(c).has_value());
  c = abort_command();
  c["metadata"] = "x";
  EXPECT_FALSE(job_command_from_json(c).has_value());
  EXPECT_FALSE(job_command_from_json(json::array()).has_value());
}

}  // namespace
}  // namespace vc::controllers::job
