#include "common/volcano/job_flow.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace vc::volcano {
namespace {

using nlohmann::json;
using std::chrono::seconds;
using testing::StrEq;
using testing::ThrowsMessage;

api::TimePoint at(const char* text) {
  return *api::parse_time(text);
}

json pipeline() {
  return json::parse(R"({
    "apiVersion": "flow.volcano.sh/v1alpha1",
    "kind": "JobFlow",
    "metadata": {"name": "pipeline", "namespace": "ml", "uid": "jf-1"},
    "spec": {
      "jobRetainPolicy": "delete",
      "flows": [
        {"name": "preprocess"},
        {"name": "train",
         "dependsOn": {
           "targets": ["preprocess"],
           "probe": {
             "httpGetList": [{"taskName": "main", "path": "/ready", "port": 8080,
                              "httpHeader": {"name": "X-Token", "value": "t"}}],
             "tcpSocketList": [{"taskName": "main", "port": 6379}],
             "taskStatusList": [{"taskName": "main", "phase": "Succeeded"}]}},
         "patch": {"jobSpec": {"minAvailable": 4, "queue": "gpu"}}},
        {"name": "report", "dependsOn": {"targets": ["train"]}, "patch": {}}
      ]
    },
    "status": {
      "completedJobs": ["pipeline-preprocess"],
      "runningJobs": ["pipeline-train"],
      "unKnowJobs": ["pipeline-report"],
      "jobStatusList": [
        {"name": "pipeline-preprocess", "state": "Completed",
         "startTimestamp": "2024-03-17T01:00:00Z", "endTimestamp": "2024-03-17T01:05:00Z",
         "runningHistories": [
           {"startTimestamp": "2024-03-17T01:00:00Z", "endTimestamp": "2024-03-17T01:00:10Z",
            "state": "Pending"},
           {"startTimestamp": "2024-03-17T01:00:10Z", "endTimestamp": null, "state": "Running"}]},
        {"name": "pipeline-train", "state": "Running", "restartCount": 1,
         "startTimestamp": "2024-03-17T01:05:01Z", "endTimestamp": null}
      ],
      "conditions": {
        "pipeline-preprocess": {"phase": "Completed", "createTime": "2024-03-17T01:00:00Z",
                                "runningDuration": "5m0s",
                                "taskStatusCount": {"main": {"phase": {"Succeeded": 1}}}},
        "pipeline-train": {"phase": "Running", "createTime": "2024-03-17T01:05:01Z",
                           "taskStatusCount": {"main": {}}}
      },
      "state": {"phase": "Running"}
    }
  })");
}

TEST(DecodeJobFlow, ReadsFlowsDependenciesProbesAndPatches) {
  JobFlow jf;
  decode_job_flow(pipeline(), jf);
  EXPECT_EQ(jf.name, "pipeline");
  EXPECT_EQ(jf.spec.job_retain_policy, retain_policy::kDelete);
  ASSERT_EQ(jf.spec.flows.size(), 3u);
  EXPECT_EQ(jf.spec.flows[0], (Flow{"preprocess", std::nullopt, std::nullopt, nullptr}));
  const Flow& train = jf.spec.flows[1];
  ASSERT_TRUE(train.depends_on.has_value());
  EXPECT_EQ(train.depends_on->targets, std::vector<std::string>{"preprocess"});
  ASSERT_TRUE(train.depends_on->probe.has_value());
  EXPECT_EQ(train.depends_on->probe->http_get_list,
            (std::vector<HttpGetProbe>{{"main", "/ready", 8080, {"X-Token", "t"}}}));
  EXPECT_EQ(train.depends_on->probe->tcp_socket_list,
            (std::vector<TcpSocketProbe>{{"main", 6379}}));
  EXPECT_EQ(train.depends_on->probe->task_status_list,
            (std::vector<TaskStatusProbe>{{"main", "Succeeded"}}));
  ASSERT_TRUE(train.patch.has_value());
  EXPECT_EQ(train.patch->min_available, 4);
  EXPECT_EQ(train.patch->queue, "gpu");
  // The stored patch is kept as it is for --jobflow-patches.
  EXPECT_EQ(train.patch_spec["queue"], "gpu");
  EXPECT_EQ(train.patch_spec["minAvailable"], 4);
  const Flow& report = jf.spec.flows[2];
  EXPECT_FALSE(report.depends_on->probe.has_value());
  EXPECT_EQ(report.patch, JobSpec{}) << "patch {} is set, with the zero JobSpec";
  EXPECT_TRUE(report.patch_spec.is_null()) << "patch {} has no jobSpec";
}

TEST(DecodeJobFlow, ReadsTheStatus) {
  JobFlow jf;
  decode_job_flow(pipeline(), jf);
  const JobFlowStatus& s = jf.status;
  EXPECT_EQ(s.completed_jobs, std::vector<std::string>{"pipeline-preprocess"});
  EXPECT_EQ(s.running_jobs, std::vector<std::string>{"pipeline-train"});
  EXPECT_EQ(s.unknown_jobs, std::vector<std::string>{"pipeline-report"});
  EXPECT_TRUE(s.pending_jobs.empty());
  ASSERT_EQ(s.job_status_list.size(), 2u);
  EXPECT_EQ(s.job_status_list[0].end_timestamp, at("2024-03-17T01:05:00Z"));
  EXPECT_EQ(s.job_status_list[0].running_histories[1],
            (JobRunningHistory{at("2024-03-17T01:00:10Z"), std::nullopt, "Running"}));
  EXPECT_EQ(s.job_status_list[1].restart_count, 1);
  EXPECT_FALSE(s.job_status_list[1].end_timestamp.has_value());
  EXPECT_EQ(s.conditions.at("pipeline-preprocess").running_duration, seconds(300));
  EXPECT_EQ(s.conditions.at("pipeline-preprocess").task_status_count,
            (TaskStatusCount{{"main", {{"Succeeded", 1}}}}));
  EXPECT_EQ(s.conditions.at("pipeline-train").task_status_count, (TaskStatusCount{{"main", {}}}));
  EXPECT_EQ(s.phase, flow_phase::kRunning);
}

TEST(DecodeJobFlow, ErrorsNameTheField) {
  json doc = pipeline();
  doc["spec"]["flows"][2]["dependsOn"]["targets"][0] = 7;
  EXPECT_THAT(
      [&] {
        JobFlow jf;
        decode_job_flow(doc, jf);
      },
      ThrowsMessage<DecodeError>(
          StrEq("spec.flows[2].dependsOn.targets[0]: expected a string, got number")));
  doc = pipeline();
  doc["spec"]["flows"][1]["dependsOn"]["probe"]["tcpSocketList"][0]["port"] = 1.5;
  EXPECT_THAT(
      [&] {
        JobFlow jf;
        decode_job_flow(doc, jf);
      },
      ThrowsMessage<DecodeError>(StrEq(
          "spec.flows[1].dependsOn.probe.tcpSocketList[0].port: expected an integer, got number")));
  doc = pipeline();
  doc["status"]["conditions"]["pipeline-train"]["taskStatusCount"]["main"]["phase"]["Running"] =
      "1";
  EXPECT_THAT(
      [&] {
        JobFlow jf;
        decode_job_flow(doc, jf);
      },
      ThrowsMessage<DecodeError>(StrEq("status.conditions[pipeline-train].taskStatusCount[main]"
                                       ".phase[Running]: expected an integer, got string")));
}

// The expected documents were printed by Go's encoding/json for the same flow/v1alpha1
// JobFlowStatus values, and follow from its tags: `state` is a struct, written even when
// empty; metav1.Time members (startTimestamp, endTimestamp, createTime) are structs too and
// marshal their zero value as null; everything else is omitempty.
TEST(EncodeJobFlowStatus, EmptyStatusIsGosShape) {
  EXPECT_EQ(encode_job_flow_status(JobFlowStatus{}), json::parse(R"({"state": {}})"));
}

TEST(EncodeJobFlowStatus, MatchesGoForZeroMembers) {
  JobFlowStatus s;
  s.failed_jobs = {"a"};
  s.job_status_list.resize(2);
  s.job_status_list[1].running_histories.resize(1);
  s.conditions = {{"a", FlowCondition{}}};
  EXPECT_EQ(encode_job_flow_status(s), json::parse(R"({
    "failedJobs": ["a"],
    "jobStatusList": [
      {"startTimestamp": null, "endTimestamp": null},
      {"startTimestamp": null, "endTimestamp": null,
       "runningHistories": [{"startTimestamp": null, "endTimestamp": null}]}],
    "conditions": {"a": {"createTime": null}},
    "state": {}})"));
}

TEST(EncodeJobFlowStatus, WritesRunningDurationAndTaskCountsAsGoDoes) {
  JobFlowStatus s;
  s.conditions["a"].running_duration = seconds(90);
  s.conditions["a"].task_status_count = {{"main", {}}, {"x", {{"Running", 2}}}};
  EXPECT_EQ(encode_job_flow_status(s), json::parse(R"({"conditions": {"a": {"createTime": null,
    "runningDuration": "1m30s", "taskStatusCount": {"main": {}, "x": {"phase": {"Running": 2}}}}},
    "state": {}})"));
}

TEST(EncodeJobFlowStatus, RoundTripsAGoDocument) {
  JobFlow jf;
  decode_job_flow(pipeline(), jf);
  EXPECT_EQ(encode_job_flow_status(jf.status), pipeline()["status"]);
  EXPECT_EQ(decode_job_flow_status(encode_job_flow_status(jf.status), FieldPath()), jf.status);
}

}  // namespace
}  // namespace vc::volcano
