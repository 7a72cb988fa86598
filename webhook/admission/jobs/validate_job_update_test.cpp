#include "webhook/admission/jobs/validate_job_update.h"

#include <gtest/gtest.h>

#include "webhook/admission/jobs/test_support.h"

namespace vc::webhook::jobs {
namespace {

using testing::valid_job;

const char* kImmutable =
    "job updates may not change fields other than `minAvailable`, `tasks[*].replicas under spec` "
    "and `PriorityClassName`";

AdmissionResponse update(json new_job, json old_job = valid_job()) {
  return admit_jobs_validate(
      testing::request(kJobsResource, "UPDATE", std::move(new_job), std::move(old_job)),
      testing::open_cluster(), {});
}

std::string denial(json new_job, json old_job = valid_job()) {
  auto r = update(std::move(new_job), std::move(old_job));
  EXPECT_FALSE(r.allowed);
  return r.message;
}

TEST(JobsValidateUpdate, UnchangedJobIsAllowed) {
  EXPECT_TRUE(update(valid_job()).allowed);
}

TEST(JobsValidateUpdate, NewObjectChecksComeFirst) {
  json job = valid_job();
  job["spec"]["tasks"][0]["replicas"] = -1;
  EXPECT_EQ(denial(job), "'replicas' must be >= 0 in task: worker");
  job = valid_job();
  job["spec"]["tasks"][0]["minAvailable"] = -1;
  EXPECT_EQ(denial(job), "'minAvailable' must be >= 0 in task: worker");
  job["spec"]["tasks"][0]["minAvailable"] = 2;
  EXPECT_EQ(denial(job), "'minAvailable' must be <= 'replicas' in task: worker");
  job = valid_job();
  job["spec"]["tasks"][0]["partitionPolicy"] = {{"totalPartitions", 0}, {"partitionSize", 1}};
  EXPECT_EQ(denial(job), "'TotalPartitions' must be greater than 0 in task: worker, job: job1");
  job = valid_job();
  job["spec"]["minAvailable"] = 2;
  EXPECT_EQ(denial(job), "job 'minAvailable' must not be greater than total replicas");
  job["spec"]["minAvailable"] = -1;
  EXPECT_EQ(denial(job), "job 'minAvailable' must be >= 0");
  job = valid_job();
  job["spec"]["networkTopology"] = {{"highestTierAllowed", 2}, {"highestTierName", "x"}};
  EXPECT_EQ(denial(job),
            "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology "
            "simultaneously");
  job = valid_job();
  job["spec"]["tasks"].push_back(testing::task("ps", 1));
  EXPECT_EQ(denial(job), "job updates may not add or remove tasks");
}

TEST(JobsValidateUpdate, MutableFieldsMayChange) {
  json old_job = valid_job();
  old_job["spec"]["volumes"] = json::array(
      {{{"mountPath", "/d"}, {"volumeClaim", {{"accessModes", json::array({"ReadWriteOnce"})}}}}});
  json job = old_job;
  job["spec"]["tasks"][0]["replicas"] = 4;
  job["spec"]["tasks"][0]["minAvailable"] = 2;
  job["spec"]["minAvailable"] = 3;
  job["spec"]["priorityClassName"] = "high";
  job["spec"]["volumes"][0]["volumeClaimName"] = "job1-pvc-abc";
  job["metadata"]["labels"] = {{"a", "b"}};
  job["status"] = {{"state", {{"phase", "Running"}}}};
  EXPECT_TRUE(update(job, old_job).allowed);
}

TEST(JobsValidateUpdate, OtherSpecChangesAreDenied) {
  json job = valid_job();
  job["spec"]["queue"] = "other";
  EXPECT_EQ(denial(job), kImmutable);
  job = valid_job();
  job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]["image"] = "nginx";
  EXPECT_EQ(denial(job), kImmutable);
  // A volumeClaimName without a claim template is the user's, not the controller's.
  json old_job = valid_job();
  old_job["spec"]["volumes"] = json::array({{{"mountPath", "/d"}, {"volumeClaimName", "a"}}});
  job = old_job;
  job["spec"]["volumes"][0]["volumeClaimName"] = "b";
  EXPECT_EQ(denial(job, old_job), kImmutable);
}

TEST(JobsValidateUpdate, ComparisonIsSemantic) {
  json old_job = valid_job();
  old_job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]["resources"] = {
      {"requests", {{"cpu", "1000m"}}}};
  old_job["spec"]["policies"] = json::array();
  old_job["spec"]["unknownField"] = 1;
  json job = valid_job();
  job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]["resources"] = {
      {"requests", {{"cpu", "1"}}}, {"limits", json::object()}};
  job["spec"]["tasks"][0]["topologyPolicy"] = "";
  job["spec"]["tasks"][0]["template"]["metadata"] = {{"creationTimestamp", nullptr}};
  EXPECT_TRUE(update(job, old_job).allowed);
}

TEST(JobsValidateUpdate, NilPointerDiffersFromPointerToZero) {
  json job = valid_job();
  job["spec"]["ttlSecondsAfterFinished"] = 0;
  EXPECT_EQ(denial(job), kImmutable);
  job = valid_job();
  job["spec"]["tasks"][0]["template"]["spec"]["terminationGracePeriodSeconds"] = 0;
  EXPECT_EQ(denial(job), kImmutable);
}

TEST(JobsValidateUpdate, UndescribedCoreFieldsCompareAsJson) {
  json job = valid_job();
  job["spec"]["tasks"][0]["template"]["spec"]["affinity"] = {{"nodeAffinity", json::object()}};
  EXPECT_EQ(denial(job), kImmutable);
}

TEST(JobsValidateUpdate, OldObjectIsDecodedToo) {
  json old_job = valid_job();
  old_job["spec"]["minAvailable"] = "1";
  EXPECT_EQ(denial(valid_job(), old_job),
            "json: cannot unmarshal string into Go struct field JobSpec.spec.minAvailable of type "
            "int32");
}

}  // namespace
}  // namespace vc::webhook::jobs
