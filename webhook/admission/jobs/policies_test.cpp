#include "webhook/admission/jobs/policies.h"

#include <gtest/gtest.h>

#include "webhook/admission/jobs/job_checks.h"
#include "webhook/admission/jobs/semantic.h"

namespace vc::webhook::jobs {
namespace {

LifecyclePolicy on_event(std::string event, std::string action = "AbortJob") {
  LifecyclePolicy p;
  p.event = std::move(event);
  p.action = std::move(action);
  return p;
}

LifecyclePolicy on_exit(std::int32_t code) {
  LifecyclePolicy p;
  p.exit_code = code;
  p.action = "anything: not validated";
  return p;
}

std::string one(const std::string& m) {
  return "1 error occurred:\n\t* " + m + "\n\n";
}

TEST(Policies, ValidPoliciesGiveNoError) {
  LifecyclePolicy merged = on_event("PodFailed");
  merged.events = {"PodFailed", "PodEvicted", "PodFailed"};
  EXPECT_EQ(
      validate_policies({merged, on_event("TaskCompleted", "CompleteJob"), on_exit(3), on_exit(-1)},
                        "spec.policies"),
      "");
}

TEST(Policies, InvalidEventAndAction) {
  EXPECT_EQ(validate_policies({on_event("OutOfSync")}, "spec.tasks.policies"),
            one("spec.tasks.policies: Invalid value: \"OutOfSync\": invalid policy event"));
  EXPECT_EQ(validate_policies({on_event("PodFailed", "SyncJob")}, "spec.policies"),
            one("spec.policies: Invalid value: \"SyncJob\": invalid policy action"));
  EXPECT_EQ(validate_policies({on_event("PodFailed", "")}, "spec.policies"),
            one("spec.policies: Invalid value: \"\": invalid policy action"));
}

TEST(Policies, DuplicatesAcrossPolicies) {
  LifecyclePolicy second;
  second.events = {"PodFailed"};
  second.action = "RestartJob";
  EXPECT_EQ(validate_policies({on_event("PodFailed"), second}, "spec.policies"),
            one("duplicate event PodFailed  across different policy"));
  EXPECT_EQ(validate_policies({on_exit(3), on_exit(3)}, "spec.policies"),
            one("duplicate exitCode 3"));
  EXPECT_EQ(validate_policies({on_exit(0)}, "spec.policies"), one("0 is not a valid error code"));
}

TEST(Policies, WildcardExcludesOtherEvents) {
  EXPECT_EQ(validate_policies({on_event("*"), on_event("PodFailed")}, "spec.policies"),
            one("if there's * here, no other policy should be here"));
  EXPECT_EQ(validate_policies({on_event("*"), on_event("PodEvicted"), on_exit(0)}, "spec.policies"),
            "2 errors occurred:\n\t* 0 is not a valid error code\n\t* if there's * here, no other "
            "policy should be here\n\n");
}

TEST(Policies, FirstErrorStopsTheRemainingPolicies) {
  EXPECT_EQ(validate_policies({LifecyclePolicy{}, on_event("Bad")}, "spec.policies"),
            one("either event and exitCode should be specified"));
}

TEST(MpiMaster, GoFlagParsingRules) {
  EXPECT_EQ(mpi_master_name({}), "master");
  EXPECT_EQ(mpi_master_name({"--master=head"}), "head");
  EXPECT_EQ(mpi_master_name({"-master", "head", "-worker=w"}), "head");
  EXPECT_EQ(mpi_master_name({"--port=22", "--master=head"}), "head");
  EXPECT_EQ(mpi_master_name({"--port=0x1_6", "--master=head"}), "head");
  EXPECT_EQ(mpi_master_name({"--port=abc", "--master=head"}), "master");  // bad int stops
  EXPECT_EQ(mpi_master_name({"--master=a", "--unknown", "--master=b"}), "a");
  EXPECT_EQ(mpi_master_name({"--master=a", "-h", "--master=b"}), "a");
  EXPECT_EQ(mpi_master_name({"--", "--master=b"}), "master");
  EXPECT_EQ(mpi_master_name({"master=b"}), "master");
  EXPECT_EQ(mpi_master_name({"---master=b"}), "master");  // bad flag syntax
  EXPECT_EQ(mpi_master_name({"--master"}), "master");     // needs an argument
}

TaskSpec dep_task(std::string name, std::vector<std::string> deps, bool has = true) {
  TaskSpec t;
  t.name = std::move(name);
  if (has) t.depends_on = volcano::DependsOn{std::move(deps), ""};
  return t;
}

TEST(TaskDag, VolcanoRules) {
  EXPECT_TRUE(tasks_form_dag({dep_task("a", {}), dep_task("b", {"a"}), dep_task("c", {"a", "b"})}));
  EXPECT_FALSE(tasks_form_dag({dep_task("a", {"b"}), dep_task("b", {"a"})}));
  EXPECT_FALSE(tasks_form_dag({dep_task("a", {"a"})}));
  EXPECT_FALSE(tasks_form_dag({dep_task("a", {}), dep_task("b", {"missing"})}));
  EXPECT_FALSE(tasks_form_dag({dep_task("a", {}), dep_task("b", {"a", "a"})}));
  EXPECT_FALSE(tasks_form_dag({dep_task("a", {}), dep_task("a", {}), dep_task("b", {"a"})}));
}

TEST(GoTrimSpace, StripsUnicodeWhiteSpaceAtBothEnds) {
  EXPECT_EQ(go_trim_space(" \t\n a b \r\n"), "a b");
  EXPECT_EQ(go_trim_space("\xc2\xa0x\xe3\x80\x80"), "x");
  EXPECT_EQ(go_trim_space("x\n\t* y\n\n"), "x\n\t* y");
  EXPECT_EQ(go_trim_space("   "), "");
  EXPECT_EQ(go_trim_space("\xe2\x80\x8b"), "\xe2\x80\x8b");  // zero-width space is not white space
}

}  // namespace
}  // namespace vc::webhook::jobs
