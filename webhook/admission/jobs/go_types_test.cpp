#include "webhook/admission/jobs/go_types.h"

#include <gtest/gtest.h>

#include "webhook/admission/jobs/schema.h"
#include "webhook/admission/jobs/test_support.h"

namespace vc::webhook::jobs {
namespace {

using testing::valid_job;

std::string job_error(const json& object) {
  auto err = check_go_types(object, schema::job());
  return err ? *err : "";
}

TEST(GoTypes, ValidJobHasNoTypeErrors) {
  EXPECT_EQ(job_error(valid_job()), "");
}

TEST(GoTypes, StringIntoInt32NamesStructAndPath) {
  json job = valid_job();
  job["spec"]["minAvailable"] = "x";
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal string into Go struct field JobSpec.spec.minAvailable of type "
            "int32");
}

TEST(GoTypes, FractionAndOverflowPrintTheNumber) {
  json job = valid_job();
  job["spec"]["tasks"][0]["replicas"] = 1.5;
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal number 1.5 into Go struct field TaskSpec.spec.tasks.replicas "
            "of type int32");
  job["spec"]["tasks"][0]["replicas"] = 3000000000LL;
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal number 3000000000 into Go struct field "
            "TaskSpec.spec.tasks.replicas of type int32");
}

TEST(GoTypes, ObjectWhereSliceExpected) {
  json job = valid_job();
  job["spec"]["tasks"] = json::object();
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal object into Go struct field JobSpec.spec.tasks of type "
            "[]v1alpha1.TaskSpec");
}

TEST(GoTypes, NestedCoreFieldUsesInnermostStruct) {
  json job = valid_job();
  job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]["name"] = 5;
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal number into Go struct field "
            "Container.spec.tasks.template.spec.containers.name of type string");
}

TEST(GoTypes, NamedTypesAndMapsPrintGoTypeNames) {
  json job = valid_job();
  job["spec"]["tasks"][0]["policies"] = json::array({{{"event", true}}});
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal bool into Go struct field "
            "LifecyclePolicy.spec.tasks.policies.event of type v1alpha1.Event");
  job = valid_job();
  job["spec"]["plugins"] = {{"ssh", "x"}};
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal string into Go struct field JobSpec.spec.plugins of type "
            "[]string");
  job = valid_job();
  job["metadata"]["labels"] = {{"a", 1}};
  EXPECT_EQ(job_error(job),
            "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of "
            "type string");
}

TEST(GoTypes, TopLevelMismatchHasNoStructField) {
  EXPECT_EQ(job_error(json::array()),
            "json: cannot unmarshal array into Go value of type v1alpha1.Job");
}

TEST(GoTypes, NullsAndUnknownFieldsAreAccepted) {
  json job = valid_job();
  job["spec"]["tasks"][0]["minAvailable"] = nullptr;
  job["spec"]["unknown"] = {{"deep", json::array({1, "x"})}};
  job["spec"]["Queue"] = 5;  // field names are case-sensitive
  job["spec"]["plugins"] = {{"ssh", nullptr}};
  EXPECT_EQ(job_error(job), "");
}

TEST(GoTypes, QuantityErrorsWinOverEarlierTypeMismatches) {
  json job = valid_job();
  job["metadata"]["name"] = 5;
  job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]["resources"] = {
      {"requests", {{"cpu", "abc"}}}};
  EXPECT_EQ(job_error(job),
            "quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]["resources"] = {
      {"limits", {{"cpu", true}}}};
  EXPECT_NE(job_error(job).find("quantities must match"), std::string::npos);
}

TEST(GoTypes, DurationsAreParsedLikeGo) {
  json job = valid_job();
  job["spec"]["policies"] = json::array({{{"event", "PodFailed"}, {"timeout", "5x"}}});
  EXPECT_EQ(job_error(job), "time: unknown unit \"x\" in duration \"5x\"");
  job["spec"]["policies"][0]["timeout"] = 5;
  EXPECT_EQ(job_error(job), "json: cannot unmarshal number into Go value of type string");
}

TEST(GoTypes, DepthCountsScalarsAndEmptyContainersAsOneLevel) {
  EXPECT_EQ(json_depth(json(5)), 1u);
  EXPECT_EQ(json_depth(json::object()), 1u);
  EXPECT_EQ(json_depth(json::array()), 1u);
  EXPECT_EQ(json_depth(json{{"a", 1}}), 2u);
  EXPECT_EQ(json_depth(json{{"a", json::array()}}), 2u);
  EXPECT_EQ(json_depth(json::parse(R"({"a":[1,{"b":[[]]}],"c":{"d":"x"}})")), 5u);
  EXPECT_EQ(json_depth(json::parse(R"([[], [[3]], {}])")), 4u);
}

TEST(GoTypes, DepthIsMeasuredWithoutRecursion) {
  json deep = json::array();
  json* cur = &deep;
  for (int i = 0; i < 10001; ++i) {
    cur->push_back(json::array());
    cur = &(*cur)[0];
  }
  EXPECT_EQ(json_depth(deep), 10002u);
  json job = valid_job();
  job["spec"]["unknown"] = std::move(deep);
  auto r = admit_jobs_validate(testing::request(kJobsResource, "CREATE", std::move(job)),
                               testing::open_cluster(), AdmissionOptions{});
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message, "exceeded max depth");
}

TEST(GoTypes, AdmitDeniesTypeErrorsWithGoMessage) {
  json job = valid_job();
  job["spec"]["queue"] = 7;
  auto r = admit_jobs_validate(testing::request(kJobsResource, "CREATE", job),
                               testing::open_cluster(), AdmissionOptions{});
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message,
            "json: cannot unmarshal number into Go struct field JobSpec.spec.queue of type string");
}

}  // namespace
}  // namespace vc::webhook::jobs
