// The jobs tables through the one checker (common/go/json_types, whose own tests cover the
// checker's rules): a valid Job passes, the real struct names reach the messages, and the admit
// functions deny with them.
#include "webhook/admission/jobs/schema.h"

#include <gtest/gtest.h>

#include "webhook/admission/jobs/test_support.h"

namespace vc::webhook::jobs {
namespace {

using testing::valid_job;

std::string job_error(const json& object) {
  return go::check_go_types(object, schema::job()).value_or("");
}

TEST(JobSchema, ValidJobHasNoTypeErrors) {
  EXPECT_EQ(job_error(valid_job()), "");
}

TEST(JobSchema, NestedCoreFieldUsesInnermostStruct) {
  json job = valid_job();
  job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]["name"] = 5;
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal number into Go struct field "
            "Container.spec.tasks.template.spec.containers.name of type string");
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
  json deep = json::array();
  json* cur = &deep;
  for (int i = 0; i < 10001; ++i) {
    cur->push_back(json::array());
    cur = &(*cur)[0];
  }
  json job = valid_job();
  job["spec"]["unknown"] = std::move(deep);
  auto r = admit_jobs_validate(testing::request(kJobsResource, "CREATE", std::move(job)),
                               testing::open_cluster(), AdmissionOptions{});
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message, "exceeded max depth");
}

}  // namespace
}  // namespace vc::webhook::jobs
