// The jobs tables through the one checker (common/go/json_types, whose own tests cover the
// checker's rules): a valid Job passes, the real struct names reach the messages, and the admit
// functions deny with them.
#include "common/volcano/go_types.h"

#include <gtest/gtest.h>

#include "webhook/admission/jobs/test_support.h"

namespace vc::webhook::jobs {
namespace {

using testing::valid_job;

std::string job_error(const json& object) {
  return go::check_go_types(object, volcano::go_types::job()).value_or("");
}

TEST(JobSchema, ValidJobHasNoTypeErrors) {
  EXPECT_EQ(job_error(valid_job()), "");
}

TEST(JobSchema, MessagesNameTheRealStructsAndTypes) {
  json job = valid_job();
  job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]["ports"] = {{{"protocol", 6}}};
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal number into Go struct field "
            "ContainerPort.spec.tasks.template.spec.containers.ports.protocol of type v1.Protocol");
  EXPECT_EQ(go::check_go_types(json::parse(R"({"spec":{"jobTemplate":{"spec":{"queue":1}}}})"),
                               volcano::go_types::cron_job()),
            "json: cannot unmarshal number into Go struct field "
            "JobSpec.spec.jobTemplate.spec.queue of type string");
  EXPECT_EQ(go::check_go_types(json::parse(R"({"spec":{"flows":[{"dependsOn":{"targets":"a"}}]}})"),
                               volcano::go_types::job_flow()),
            "json: cannot unmarshal string into Go struct field "
            "DependsOn.spec.flows.dependsOn.targets of type []string");
}

// Volcano decodes the whole object, status included (a client may send one; the mutating
// webhook sees it before the API server drops it), and a JobFlow's probes and patches.
TEST(JobSchema, StatusProbesAndPatchesAreCheckedToo) {
  json job = valid_job();
  job["status"] = {{"state", {{"phase", 1}}}};
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal number into Go struct field "
            "JobState.status.state.phase of type v1alpha1.JobPhase");
  EXPECT_TRUE(go::check_go_types(json::parse(R"({"status":{"lastScheduleTime":"yesterday"}})"),
                                 volcano::go_types::cron_job())
                  .value_or("")
                  .starts_with("parsing time \"yesterday\""));
  EXPECT_EQ(
      go::check_go_types(
          json::parse(
              R"({"spec":{"flows":[{"dependsOn":{"probe":{"tcpSocketList":[{"port":"x"}]}}}]}})"),
          volcano::go_types::job_flow()),
      "json: cannot unmarshal string into Go struct field "
      "TcpSocket.spec.flows.dependsOn.probe.tcpSocketList.port of type int");
  EXPECT_EQ(go::check_go_types(
                json::parse(R"({"spec":{"flows":[{"patch":{"jobSpec":{"minAvailable":"2"}}}]}})"),
                volcano::go_types::job_flow()),
            "json: cannot unmarshal string into Go struct field "
            "JobSpec.spec.flows.patch.jobSpec.minAvailable of type int32");
}

TEST(JobSchema, AdmitDeniesTypeErrorsWithGoMessage) {
  json job = valid_job();
  job["spec"]["queue"] = 7;
  auto r = admit_jobs_validate(testing::request(kJobsResource, "CREATE", job),
                               testing::open_cluster(), AdmissionOptions{});
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message,
            "json: cannot unmarshal number into Go struct field JobSpec.spec.queue of type string");
}

TEST(JobSchema, AdmitDeniesObjectsNestedDeeperThanGoAccepts) {
  json job = valid_job();
  job["spec"]["unknown"] = json::parse(std::string(10001, '[') + std::string(10001, ']'));
  auto r = admit_jobs_validate(testing::request(kJobsResource, "CREATE", std::move(job)),
                               testing::open_cluster(), AdmissionOptions{});
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message, "exceeded max depth");
}

}  // namespace
}  // namespace vc::webhook::jobs
